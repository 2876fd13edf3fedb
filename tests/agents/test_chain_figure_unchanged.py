"""The chain read and its figure draw the same as before the checkpoint graph was made faster.

The thread has what the fast paths take short cuts on: parallel ``Send`` tasks named by the
node log, a loop, ``update_state`` forks on older checkpoints (one reusing a node's task), a
``__copy__`` fork and an ``update_state`` at the head. The figure of today's read-model and
figure code is compared, trace by trace, with the figure of the code at :data:`BEFORE`, loaded
from git beside today's, once the two changes made since on purpose are applied to it: the gap after
each parent link is NaN in a float array (None in an object array then; both a break in the line),
row r is drawn at y = -r on an axis that is not reversed (at y = r on a reversed axis then: the
same picture, but Plotly 4 drew WebGL lines on a reversed axis at its bottom edge), a label of
several writers is written short, so labels a step apart do not run together, and only the labels with room
are drawn, on the side chosen for them, in an x range with room for the halo at its ends.
"""

from __future__ import annotations

import html
import json
import math
import operator
import subprocess
from typing import Annotated, Any, TypedDict

import numpy as np
import pytest
from langgraph.graph import END, START, StateGraph
from langgraph.types import Send

from agents import readmodel
from agents.chain_layout import layout_columns
from agents.nodelog import logged_node
from benchmarks._base import ROOT, BaseStore, load_chain_modules
from dashboard.checkpoint_figure import checkpoint_figure, columns_figure
from dashboard.checkpoint_hover import label_text

#: The commit before the checkpoint graph's read and figure were made faster.
BEFORE = "0cfd156"
THREAD = "forked"
TRACE_ARRAYS = ("x", "y", "text", "hovertext", "customdata", "textposition", "name", "mode", "type")


class FanState(TypedDict):
    rounds: int
    done: Annotated[list[str], operator.add]


def _plan(state: FanState) -> dict[str, Any]:
    return {"rounds": state["rounds"] + 1}


def _work(task: dict[str, str]) -> dict[str, Any]:
    return {"done": [task["part"]]}


def _fan_out(state: FanState) -> list[Send]:
    return [Send("work", {"part": f"part-{n}"}) for n in range(3)]


def _again(state: FanState) -> str:
    return "plan" if state["rounds"] < 3 else END


def _forked_thread(store: Any) -> None:
    """A logged plan → ``audit`` beside 3 ``work`` tasks loop, forked, copied and edited at the head."""
    builder = StateGraph(FanState)
    builder.add_node("plan", logged_node(store, "robot", _plan, name="plan"))
    builder.add_node("work", logged_node(store, "robot", _work, name="work"))
    builder.add_edge(START, "plan")
    builder.add_conditional_edges("plan", _fan_out, ["work"])
    builder.add_node("audit", lambda state: {"done": ["audited"]})  # runs beside the Send tasks
    builder.add_node("check", lambda state: {})
    builder.add_edge("plan", "audit")
    builder.add_edge(["audit", "work"], "check")
    builder.add_conditional_edges("check", _again, ["plan", END])
    graph = builder.compile(checkpointer=store.saver)
    config: dict[str, Any] = {"configurable": {"thread_id": THREAD}, "metadata": {"agent": "robot"}}
    graph.invoke({"rounds": 0, "done": []}, config)
    history = list(graph.get_state_history(config))[::-1]
    # An update as the node the checkpoint schedules reuses its task; then the fork runs on.
    at_plan = next(s for s in history if s.next == ("plan",))
    forked = graph.update_state(at_plan.config, {"rounds": 2}, as_node="plan")
    graph.invoke(None, {**forked, "metadata": {"agent": "robot"}})
    graph.update_state(history[len(history) // 2].config, None, as_node="__copy__")
    head = graph.get_state({"configurable": {"thread_id": THREAD}})
    graph.update_state(head.config, {"rounds": 0})


@pytest.fixture
def before() -> tuple[Any, Any, Any]:
    """The read-model, its SQL and the figure module at :data:`BEFORE`."""
    known = subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e", f"{BEFORE}^{{commit}}"], check=False)
    if known.returncode != 0:
        pytest.skip(f"commit {BEFORE} is not in this checkout")
    return load_chain_modules(BEFORE, "_before")


#: A gap in a line: None then, NaN now.
GAP = "gap"


def _as_drawn(value: Any) -> Any:
    return GAP if value is None or (isinstance(value, float) and math.isnan(value)) else value


def _traces(figure: Any) -> list[dict[str, Any]]:
    """Each trace's per-point data and names, as plain lists (NumPy arrays compare element-wise)."""
    drawn = []
    for trace in figure.data:
        entry = {}
        for key in TRACE_ARRAYS:
            value = getattr(trace, key, None)
            entry[key] = [_as_drawn(v) for v in value] if value is not None and not isinstance(value, str) else value
        entry["marker"] = trace.marker.to_plotly_json() if hasattr(trace, "marker") else None
        drawn.append(entry)
    return drawn


def test_the_thread_has_what_the_short_cuts_are_taken_on(store):
    _forked_thread(store)
    chain = readmodel.checkpoint_chain(store, THREAD)
    assert {c.source for c in chain} == {"input", "loop", "update", "fork"}
    assert any(c.writers == ("audit", "work") for c in chain)  # a step of parallel tasks
    assert chain[-1].is_head and chain[-1].source == "update"  # the update_state at the head
    assert sum(n > 1 for n in layout_columns(chain).children) >= 2  # forks
    with store.read() as cursor:
        cursor.execute("SELECT COUNT(*) FROM node_log WHERE thread_id = ? AND node = 'work'", (THREAD,))
        assert cursor.fetchone()[0] >= 9


@pytest.mark.parametrize("selected", [False, True])
@pytest.mark.parametrize("webgl_threshold", [2000, 0])
def test_the_figure_is_the_one_drawn_before(store, before, selected, webgl_threshold):
    _forked_thread(store)
    before_readmodel, before_sql, before_figure = before
    chain = readmodel.checkpoint_chain(store, THREAD)
    earlier = before_readmodel.checkpoint_chain(BaseStore(store, before_sql.SqliteQueries()), THREAD)
    # The earlier checkpoints are dataclasses, today's are named tuples: compared field by field.
    fields = readmodel.ChainCheckpoint._fields
    assert [tuple(c) for c in chain] == [tuple(getattr(c, name) for name in fields) for c in earlier]
    chosen = chain[len(chain) // 3].checkpoint_id if selected else None
    now = checkpoint_figure(chain, selected_id=chosen, webgl_threshold=webgl_threshold)
    then = _drawn_as_today(
        before_figure.checkpoint_figure(earlier, selected_id=chosen, webgl_threshold=webgl_threshold), now
    )
    assert len(now.data) >= 6  # links, halo or not, four sources, the head's ring, the labels
    assert _traces(now) == _traces(then)
    assert json.loads(now.to_json()) == json.loads(then.to_json())


def test_the_columns_figure_is_the_one_drawn_before(store, before):
    _forked_thread(store)
    _, _, before_figure = before
    columns = layout_columns(readmodel.checkpoint_chain(store, THREAD))
    now = columns_figure(columns, view_steps=4)
    then = _drawn_as_today(before_figure.columns_figure(columns, view_steps=4), now)
    assert _traces(now) == _traces(then)
    assert json.loads(now.to_json()) == json.loads(then.to_json())


def _drawn_as_today(figure: Any, now: Any) -> Any:
    """An earlier figure with today's changes: NaN gaps in float links, row r at y = -r, no reversed
    axis, a label of several writers written short (``work ×3``, ``audit +3``; the hover keeps every name),
    the lane's word written level over the lane names instead of as the axis's sideways title, and, as
    ``now`` draws them (``dashboard.checkpoint_labels``), the labels with room, on their sides and in their
    size, and the x range.
    """
    for trace in figure.data:
        if trace.mode == "markers+text" and trace.text is not None:  # the labels: names, comma-joined then
            trace.text = [label_text(tuple(html.unescape(text).split(", "))) if text else "" for text in trace.text]
        if trace.mode == "lines":
            trace.x = np.array([np.nan if v is None else v for v in trace.x], dtype=float)
            trace.y = 0.0 - np.array([np.nan if v is None else v for v in trace.y], dtype=float)  # 0.0, not -0.0
        else:
            trace.y = -np.asarray(trace.y)
    figure.layout.yaxis.tickvals = [-row for row in figure.layout.yaxis.tickvals]
    figure.layout.yaxis.autorange = None
    lane_word = figure.layout.yaxis.title.text
    figure.layout.yaxis.title = None
    figure.layout.annotations = [
        {
            "text": lane_word,
            **{"xref": "paper", "yref": "paper", "x": 0, "y": 1, "xanchor": "right", "yanchor": "bottom"},
            **{"textangle": 0, "showarrow": False},
        }
    ]
    (labels,) = [trace for trace in figure.data if trace.mode == "markers+text"]
    (placed,) = [trace for trace in now.data if trace.mode == "markers+text"]
    keep = [list(labels.customdata).index(checkpoint) for checkpoint in placed.customdata]
    labels.update(
        x=np.asarray(labels.x)[keep],
        y=np.asarray(labels.y)[keep],
        customdata=np.asarray(labels.customdata)[keep],
        text=[labels.text[k] for k in keep],
        textposition=placed.textposition,
        textfont=placed.textfont,
        marker_size=[labels.marker.size[k] for k in keep],
    )
    figure.layout.xaxis.range = now.layout.xaxis.range
    return figure
