"""AppTest for the checkpoint explorer page."""

from __future__ import annotations

import json

from agents import readmodel, runs
from agents.chain_layout import WINDOW_LANDMARKS, WINDOW_SIZE
from benchmarks._data import build_proposal_thread
from tests.factories import messages, start_refund, thread_counts

PAGE = "app_pages/explorer.py"
SELECT = "explorer-checkpoint-hitl_demo"


def _writes(at):
    """The writes table of the selected checkpoint: (node, channel, value) rows."""
    frame = at.dataframe[0].value
    return list(zip(frame["node"], frame["channel"], frame["value"], strict=True))


def _select_step(at, store, step, source="loop"):
    target = next(c for c in readmodel.checkpoint_chain(store, "hitl_demo") if c.step == step and c.source == source)
    at.selectbox(key=SELECT).select(target.checkpoint_id).run()
    assert not at.exception, at.exception
    return target


def test_empty_database_shows_a_clear_message(app):
    at = app(PAGE)
    assert not at.exception
    assert "The database has no threads yet." in messages(at)
    assert not at.dataframe


def test_unknown_thread_in_the_link_shows_a_clear_message(app, store, settings):
    runs.start_run(store, settings, "robot", {})
    at = app(PAGE)
    at.query_params["thread"] = "no_such_thread"
    at.run()
    assert not at.exception
    assert "There is no thread named no_such_thread in the database." in messages(at)
    at.query_params["thread"] = "bad id!"
    at.run()
    assert "The link names an invalid thread id" in messages(at)


def test_link_preselects_the_thread(app, store, settings):
    runs.start_run(store, settings, "robot", {}, thread_id="second")
    runs.start_run(store, settings, "robot", {})
    at = app(PAGE)
    assert at.selectbox(key="explorer-thread").value == "hitl_demo"  # newest first
    at.query_params["thread"] = "second"
    at.run()
    assert at.selectbox(key="explorer-agent").value == "robot"
    assert at.selectbox(key="explorer-thread").value == "second"
    assert at.selectbox(key="explorer-checkpoint-second").value == readmodel.head_checkpoint_id(store, "second")


def test_the_paused_checkpoint_shows_its_interrupt_write(app, store, settings):
    runs.start_run(store, settings, "robot", {})
    at = app(PAGE)
    assert not at.exception
    head = readmodel.head_checkpoint_id(store, "hitl_demo")
    assert at.selectbox(key=SELECT).value == head  # the head is selected by default
    labels = at.selectbox(key=SELECT).options  # AppTest lists the formatted labels
    assert labels[-1].startswith("step 1 · loop · ") and labels[-1].endswith("· head, waiting")
    assert "3 checkpoints · 1 lane(s)" in " ".join(c.value for c in at.caption)
    [(node, channel, value)] = _writes(at)
    assert (node, channel) == ("approval", "__interrupt__")
    assert "Execute this? (yes/no)" in value
    assert at.json[0].value and '"pending_action": "Business trip request: Busan, 2 days' in at.json[0].value


def test_selecting_a_checkpoint_shows_its_state_metadata_and_writes(app, store, settings):
    runs.start_run(store, settings, "robot", {})
    runs.resume_thread(store, settings, "hitl_demo", "yes")
    at = app(PAGE)
    _select_step(at, store, 0)
    channels = [channel for _, channel, _ in _writes(at)]
    assert "pending_action" in channels and "branch:to:approval" in channels
    assert '"messages"' in at.json[0].value and "pending_action" not in at.json[0].value
    assert '"source": "loop"' in at.json[1].value and '"step": 0' in at.json[1].value
    _select_step(at, store, 1)
    channels = [channel for _, channel, _ in _writes(at)]
    assert {"__interrupt__", "__resume__", "decision"} <= set(channels)
    _select_step(at, store, 3)
    assert "No writes: nothing has run from this checkpoint yet." in " ".join(c.value for c in at.caption)


def test_a_click_on_a_point_selects_its_checkpoint(app, store, settings):
    runs.start_run(store, settings, "robot", {})
    first = readmodel.checkpoint_chain(store, "hitl_demo")[0].checkpoint_id
    at = app(PAGE)
    # What Streamlit stores for an on_select="rerun" chart after a click on a point.
    at.session_state["explorer-chart-hitl_demo"] = {
        "selection": {"points": [{"customdata": first, "x": -1, "y": 0}], "point_indices": [0], "box": [], "lasso": []}
    }
    at.run()
    assert not at.exception
    assert at.selectbox(key=SELECT).value == first
    assert [channel for _, channel, _ in _writes(at)] == ["messages", "branch:to:propose"]


def test_rerun_from_an_old_checkpoint_adds_a_branch(app, store, settings):
    runs.start_run(store, settings, "robot", {})
    runs.resume_thread(store, settings, "hitl_demo", "yes")
    before = readmodel.checkpoint_chain(store, "hitl_demo")
    at = app(PAGE)
    target = _select_step(at, store, 0)
    at.button(key="explorer-rerun-hitl_demo").click().run()
    assert not at.exception, at.exception
    assert "Re-ran hitl_demo from" in messages(at) and "waiting" in messages(at)
    after = readmodel.checkpoint_chain(store, "hitl_demo")
    assert after[: len(before)] == [*before[:-1], before[-1]._replace(is_head=False)]  # history intact
    fork = after[len(before)]
    assert fork.source == "fork" and fork.parent_checkpoint_id == target.checkpoint_id
    assert after[-1].is_waiting
    assert at.selectbox(key=SELECT).value == after[-1].checkpoint_id  # the new head is selected


def test_fork_with_edited_state_and_continue(app, store, settings):
    runs.start_run(store, settings, "robot", {})
    runs.resume_thread(store, settings, "hitl_demo", "yes")
    before = [c.checkpoint_id for c in readmodel.checkpoint_chain(store, "hitl_demo")]
    at = app(PAGE)
    paused = _select_step(at, store, 1)
    editor = at.text_area(key=f"explorer-fork-values-{paused.checkpoint_id}")
    assert '"pending_action"' in editor.value  # prefilled with the checkpoint's editable values
    editor.input('{"decision": "no"}')
    at.selectbox(key="explorer-fork-asnode-hitl_demo").select("approval")
    at.checkbox(key="explorer-fork-continue-hitl_demo").check()
    at.button(key="FormSubmitter:explorer-fork-hitl_demo-Fork").click().run()
    assert not at.exception, at.exception
    assert "Forked hitl_demo at" in messages(at) and ": done · refused." in messages(at)
    chain = readmodel.checkpoint_chain(store, "hitl_demo")
    assert [c.checkpoint_id for c in chain][: len(before)] == before  # history intact
    update = next(c for c in chain if c.source == "update")
    assert update.parent_checkpoint_id == paused.checkpoint_id
    result = runs.current_result(store, settings, "hitl_demo")
    assert result.values["messages"][-1].content.startswith("Refused")


def test_fork_refuses_bad_json_and_unknown_keys(app, store, settings):
    runs.start_run(store, settings, "robot", {})
    count = len(readmodel.checkpoint_chain(store, "hitl_demo"))
    at = app(PAGE)
    head = readmodel.head_checkpoint_id(store, "hitl_demo")
    for text, message in (
        ("{oops", "State values to write (JSON object): is not valid JSON"),
        ('{"colour": "red"}', "colour: is not a state key"),
    ):
        at.text_area(key=f"explorer-fork-values-{head}").input(text)
        at.button(key="FormSubmitter:explorer-fork-hitl_demo-Fork").click().run()
        assert not at.exception
        assert message in messages(at)
    assert len(readmodel.checkpoint_chain(store, "hitl_demo")) == count


def test_a_stale_view_is_refused(app, store, settings):
    runs.start_run(store, settings, "robot", {})
    at = app(PAGE)
    _select_step(at, store, 0)
    runs.resume_thread(store, settings, "hitl_demo", "no")  # another tab acts first
    count = len(readmodel.checkpoint_chain(store, "hitl_demo"))
    at.button(key="explorer-rerun-hitl_demo").click().run()
    assert "changed since this form was drawn" in messages(at)
    assert len(readmodel.checkpoint_chain(store, "hitl_demo")) == count


def test_a_click_drawn_for_a_thread_another_tab_deleted_acts_on_no_other_thread(app, store, settings):
    runs.start_run(store, settings, "robot", {}, thread_id="older")
    runs.update_thread(store, settings, "older", {"decision": "yes"}, as_node="approval")  # edited, not continued
    runs.start_run(store, settings, "robot", {}, thread_id="shown")
    at = app(PAGE)
    assert at.selectbox(key="explorer-thread").value == "shown"  # the newest
    older = thread_counts(store, "older")
    runs.delete_thread(store, "shown")  # another tab deletes it; the picker moves on to "older" by itself
    at.button(key="explorer-rerun-shown").click().run()
    assert not at.exception, at.exception
    assert at.selectbox(key="explorer-thread").value == "older"
    assert thread_counts(store, "older") == older  # nothing ran on a thread this tab did not show
    assert runs.current_result(store, settings, "older").status == "attention"


def test_sidebar_forms_act_on_the_chosen_thread(app, store, settings):
    runs.start_run(store, settings, "robot", {}, thread_id="other")
    at = app(PAGE)
    assert any("Thread other · checkpoint" in c.value for c in at.sidebar.caption)
    at.sidebar.text_input(key="resume-answer-other").input("yes")
    at.sidebar.button[0].click().run()
    assert "Resumed thread other: done · executed." in messages(at)


# --- A long thread: a window of it, "show all" -------------------------------------------------


def _drawn_ids(at) -> set[str]:
    """The checkpoint ids of every point the page's figure draws."""
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    return {cid for trace in spec["data"] if trace.get("mode") != "lines" for cid in trace.get("customdata", [])}


def _long_thread(app, store, checkpoints=400):
    build_proposal_thread(store, "long", checkpoints, agent="robot")
    at = app(PAGE)
    at.query_params["thread"] = "long"
    at.run()
    assert not at.exception, at.exception
    return at


def test_a_long_thread_is_drawn_as_a_window_around_the_selected_checkpoint(app, store):
    at = _long_thread(app, store)
    chain = readmodel.checkpoint_chain(store, "long")
    head = chain[-1].checkpoint_id
    drawn = _drawn_ids(at)
    assert head in drawn and at.selectbox(key="explorer-checkpoint-long").value == head
    assert WINDOW_SIZE <= len(drawn) <= WINDOW_SIZE + WINDOW_LANDMARKS + 2 < len(chain)
    assert f"Drawn: {len(drawn)} of 400 checkpoints" in " ".join(c.value for c in at.caption)
    # A click on a point far from the head (one the select box lists: the first checkpoint) moves the window.
    first = chain[0].checkpoint_id
    at.session_state["explorer-chart-long"] = {"selection": {"points": [{"customdata": first}]}}
    at.run()
    moved = _drawn_ids(at)
    assert first in moved and chain[150].checkpoint_id in moved and chain[250].checkpoint_id not in moved
    assert head in moved  # the head stays in every window


def test_show_all_draws_every_checkpoint_and_back(app, store):
    at = _long_thread(app, store)
    toggle = at.toggle(key="explorer-all-long")
    assert toggle.label == "Show all 400 checkpoints"
    toggle.set_value(True).run()
    assert not at.exception, at.exception
    assert len(_drawn_ids(at)) == 400
    assert not any(c.value.startswith("Drawn:") for c in at.caption)
    at.toggle(key="explorer-all-long").set_value(False).run()
    assert len(_drawn_ids(at)) < 400


def test_a_short_thread_offers_no_window_switch(app, store, settings):
    runs.start_run(store, settings, "robot", {})
    at = app(PAGE)
    assert "explorer-all-hitl_demo" not in [toggle.key for toggle in at.main.toggle]
    assert len(_drawn_ids(at)) == 3


# --- Readable: collapsed state, messages beside the actions, a done thread, Korean ------------------


def _in_order(at) -> list[str]:
    """The text (or a widget's label) of the main area's elements, in the order the page draws them."""
    found: list[str] = []

    def walk(node) -> None:
        value = getattr(node, "label", None) or getattr(node, "value", None)
        if isinstance(value, str):
            found.append(value)
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at.main)
    return found


def test_the_decoded_state_is_collapsed_and_the_actions_come_before_the_writes(app, store, settings):
    runs.start_run(store, settings, "robot", {})
    at = app(PAGE)
    state, metadata = at.json[0].proto, at.json[1].proto
    assert state.max_expand_depth == 1  # the top-level keys, their nested values collapsed
    assert metadata.expanded is False
    order = _in_order(at)
    actions = order.index("From this checkpoint")
    assert order.index("Re-run from here") > actions
    assert actions < next(i for i, text in enumerate(order) if text.startswith("**Writes stored"))


def test_a_rerun_message_appears_beside_the_actions(app, store, settings):
    runs.start_run(store, settings, "robot", {})
    at = app(PAGE)
    _select_step(at, store, 0)
    at.button(key="explorer-rerun-hitl_demo").click().run()
    assert not at.exception, at.exception
    order = _in_order(at)
    message = next(i for i, text in enumerate(order) if "Re-ran hitl_demo from" in text)
    assert order.index("From this checkpoint") < message < order.index("Re-run from here")
    at.run()  # shown once
    assert "Re-ran hitl_demo from" not in messages(at)


def test_a_done_thread_shows_no_old_interrupt_as_waiting(app, store, settings):
    start_refund(store, settings, "D1")
    runs.update_thread(store, settings, "refund-D1", {"amount": 50_000})  # edited while it waited
    runs.resume_from_fields(store, settings, "refund-D1", {"action": "approve", "approver": "kim"})
    at = app(PAGE)
    at.query_params["thread"] = "refund-D1"
    at.run()
    assert not at.exception, at.exception
    assert not any("waiting" in label for label in at.selectbox(key="explorer-checkpoint-refund-D1").options)
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert "waiting for a human" not in [trace.get("name") for trace in spec["data"]]


def test_the_page_and_its_figure_read_in_korean(app, store, settings):
    runs.start_run(store, settings, "robot", {})
    build_proposal_thread(store, "long", 300, agent="robot")
    at = app(PAGE)
    at.query_params["lang"] = "ko"
    at.query_params["thread"] = "long"
    at.run()
    assert not at.exception, at.exception
    assert at.title[0].value == "체크포인트 탐색기"
    assert at.toggle(key="explorer-all-long").label == "체크포인트 300개 모두 보기"
    captions = " ".join(c.value for c in at.caption)
    assert "그린 체크포인트" in captions and "두 번 클릭" in captions
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    names = {trace.get("name") for trace in spec["data"]}
    assert {"입력", "루프", "헤드", "선택됨", "그리지 않은 체크포인트"} <= names
    assert {"input", "loop", "head", "selected"}.isdisjoint(names)
    assert spec["layout"]["xaxis"]["title"]["text"] == "스텝"
    assert at.selectbox(key="explorer-checkpoint-long").options[-1].startswith("스텝 ")
    assert at.button(key="explorer-rerun-long").label == "여기서 다시 실행"
