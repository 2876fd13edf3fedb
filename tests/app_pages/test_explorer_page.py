"""AppTest for the checkpoint explorer page."""

from __future__ import annotations

import dataclasses

from agents import readmodel, runs
from tests.factories import messages

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
    at.button(key="explorer-rerun").click().run()
    assert not at.exception, at.exception
    assert "Re-ran hitl_demo from" in messages(at) and "waiting" in messages(at)
    after = readmodel.checkpoint_chain(store, "hitl_demo")
    assert after[: len(before)] == [*before[:-1], dataclasses.replace(before[-1], is_head=False)]  # history intact
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
    for text, message in (("{oops", "values: is not valid JSON"), ('{"colour": "red"}', "colour: is not a state key")):
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
    at.button(key="explorer-rerun").click().run()
    assert "changed since this form was drawn" in messages(at)
    assert len(readmodel.checkpoint_chain(store, "hitl_demo")) == count


def test_sidebar_forms_act_on_the_chosen_thread(app, store, settings):
    runs.start_run(store, settings, "robot", {}, thread_id="other")
    at = app(PAGE)
    assert any("Thread other · checkpoint" in c.value for c in at.sidebar.caption)
    at.sidebar.text_input(key="resume-answer-other").input("yes")
    at.sidebar.button[0].click().run()
    assert "Resumed thread other: done · executed." in messages(at)
