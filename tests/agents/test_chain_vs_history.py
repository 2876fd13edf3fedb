"""The SQL-read checkpoint chain agrees with LangGraph's own ``get_state_history``."""

from __future__ import annotations

from agents import readmodel, runs, runtime
from agents.chain_layout import layout_chain, layout_columns


def _forked_robot_thread(store, settings):
    """A robot thread answered yes, then forked twice: update_state at the pause, and a re-run."""
    runs.start_run(store, settings, "robot", {})
    runs.resume_thread(store, settings, "hitl_demo", "yes")
    main = readmodel.checkpoint_chain(store, "hitl_demo")
    paused = next(c for c in main if c.next == ("approval",))
    runs.update_thread(
        store, settings, "hitl_demo", {"decision": "no"}, as_node="approval", checkpoint_id=paused.checkpoint_id
    )
    runs.continue_thread(store, settings, "hitl_demo")
    step0 = next(c for c in main if c.step == 0)
    runs.continue_thread(store, settings, "hitl_demo", checkpoint_id=step0.checkpoint_id)
    return main


def _history(store):
    graph = runtime.graph(store, "robot")
    return list(graph.get_state_history({"configurable": {"thread_id": "hitl_demo"}}))[::-1]


def _parent(snapshot):
    return (snapshot.parent_config or {}).get("configurable", {}).get("checkpoint_id")


def test_chain_equals_state_history_on_a_forked_thread(store, settings):
    main = _forked_robot_thread(store, settings)
    chain = readmodel.checkpoint_chain(store, "hitl_demo")
    history = _history(store)
    assert len(chain) == len(history) == len(main) + 4
    assert [(c.checkpoint_id, c.parent_checkpoint_id, c.step, c.source) for c in chain] == [
        (h.config["configurable"]["checkpoint_id"], _parent(h), h.metadata["step"], h.metadata["source"])
        for h in history
    ]
    assert [c.next for c in chain] == [tuple(h.next) for h in history]
    # waiting = an interrupt nobody answered yet (an answered one also has the node's result)
    assert [c.is_waiting for c in chain] == [
        any(task.interrupts and task.result is None for task in h.tasks) for h in history
    ]
    assert sum(c.is_waiting for c in chain) == 1
    assert [c.is_head for c in chain] == [False] * (len(chain) - 1) + [True]


def test_the_forks_are_drawn_as_two_branches(store, settings):
    main = _forked_robot_thread(store, settings)
    chain = readmodel.checkpoint_chain(store, "hitl_demo")
    laid_out = layout_chain(chain)
    sources_by_lane: dict[int, list[str]] = {}
    for point in laid_out:
        sources_by_lane.setdefault(point.lane, []).append(point.checkpoint.source)
    assert sources_by_lane == {
        0: [c.source for c in main],
        1: ["update", "loop"],  # update_state at the pause, then execute
        2: ["fork", "loop"],  # re-run from step 0: LangGraph's fork, then propose
    }
    assert sum(children > 1 for children in layout_columns(chain).children) == 2
