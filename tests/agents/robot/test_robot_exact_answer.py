"""Only the exact lowercase ``yes`` executes, compared as given: ``"yes "`` is no ``yes`` on any path.

Tried on every path an answer takes: ``runs`` (what the page's buttons call), the CLI's ``resume`` and
``update``, the sidebar's resume form typed and raw and its update form, the HTTP API (LangGraph's
``runs/wait`` and ``update_state``) and LangGraph's own tooling. Each shows the answer it received
verbatim, its spaces visible (``'yes␣'``), never trimmed.
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from langgraph.types import Command

from agents import runs
from agents.api.app import create_app
from agents.robot.graph import build_graph
from agents.texts import verbatim
from tests.factories import pause_robot

PAGE = "app_pages/robot.py"
SPACED = ["yes ", " yes", "yes  ", "\u3000yes", "yes\u00a0"]
IDS = ["trailing", "leading", "two-trailing", "ideographic-space", "no-break-space"]


def _refused_with(result_values: dict, answer: str) -> None:
    assert result_values["decision"] == answer, "the answer is recorded as given, not trimmed"
    message = result_values["messages"][-1].content
    assert message.startswith("Refused") and verbatim(answer) in message, message


def test_the_received_answer_is_shown_with_its_spaces_visible():
    assert verbatim("yes ") == "'yes\u2423'"
    assert verbatim(" yes") == "'\u2423yes'"
    assert verbatim("yes\u3000") == "'yes\\u3000'" and verbatim("yes\t") == "'yes\\t'"
    assert verbatim("a\u2423b") == "'a\\u2423b'", "a typed open box never reads as a space"
    assert verbatim("yes") == "'yes'"


@pytest.mark.parametrize("answer", SPACED, ids=IDS)
def test_an_answer_with_spaces_refuses_through_runs(store, settings, answer):
    pause_robot(store, settings)
    result = runs.resume_thread(store, settings, "hitl_demo", answer)
    assert (result.status, result.outcome) == ("done", "refused")
    _refused_with(result.values, answer)


@pytest.mark.parametrize("answer", ["yes ", " yes"])
def test_an_answer_with_spaces_refuses_through_the_typed_and_object_answers(store, settings, answer):
    pause_robot(store, settings)
    typed = runs.resume_from_fields(store, settings, "hitl_demo", {"answer": answer})
    assert typed.outcome == "refused"
    _refused_with(typed.values, answer)
    pause_robot(store, settings, "other")
    raw = runs.resume_thread(store, settings, "other", {"answer": answer})
    assert raw.outcome == "refused"
    _refused_with(raw.values, answer)


def test_the_cli_resume_refuses_yes_with_a_space(run_cli, store, settings):
    pause_robot(store, settings)
    done = run_cli("resume", "hitl_demo", "yes ", "--json")
    assert done.code == 0, done.err
    assert '"outcome": "refused"' in done.out
    assert "'yes\u2423'" in done.out
    _refused_with(runs.current_result(store, settings, "hitl_demo").values, "yes ")


def test_an_update_of_the_decision_keeps_its_spaces(run_cli, store, settings):
    pause_robot(store, settings)
    done = run_cli("update", "hitl_demo", "--values", '{"decision": "yes "}', "--as-node", "approval")
    assert done.code == 0, done.err
    assert runs.current_result(store, settings, "hitl_demo").values["decision"] == "yes "
    assert run_cli("continue", "hitl_demo").code == 0
    result = runs.current_result(store, settings, "hitl_demo")
    assert result.outcome == "refused"
    _refused_with(result.values, "yes ")


def test_the_api_and_the_tooling_path_refuse_yes_with_a_space(store, settings):
    pause_robot(store, settings)
    with TestClient(create_app(store, settings), base_url="http://127.0.0.1") as api:
        body = {"assistant_id": "robot", "command": {"resume": "yes "}}
        answered = api.post("/threads/hitl_demo/runs/wait", json=body)
    assert answered.status_code == 200, answered.text
    assert answered.json()["decision"] == "yes "
    assert answered.json()["messages"][-1]["content"].startswith("Refused")
    pause_robot(store, settings, "tooling")
    graph = build_graph(store.saver, store=store)
    config = {"configurable": {"thread_id": "tooling"}, "metadata": {"agent": "robot"}}
    graph.invoke(Command(resume="yes "), config)
    assert runs.current_result(store, settings, "tooling").outcome == "refused"


def test_the_page_says_before_sending_that_yes_with_a_space_refuses_and_shows_it(app, store, settings):
    pause_robot(store, settings)
    at = app(PAGE)
    at.text_input(key="robot-free-text").input("yes ").run()
    captions = [c.value for c in at.caption]
    assert any("'yes\u2423'" in c and "not exactly `yes`" in c for c in captions), captions
    at.button(key="robot-send").click().run()
    assert not at.exception
    assert not at.success, [s.value for s in at.success]
    warnings = [w.value for w in at.warning]
    assert "Answered 'yes\u2423': refused." in warnings, warnings
    assert any(w.startswith("Refused: the answer 'yes\u2423' is not exactly `yes`") for w in warnings), warnings
    assert not any("the answer was exactly" in s.value for s in at.success)


def test_an_executed_answer_shows_the_answer_received(app, store, settings):
    pause_robot(store, settings)
    at = app(PAGE)
    at.button(key="robot-yes").click().run()
    assert any("the answer received, 'yes', was exactly `yes`" in s.value for s in at.success)


@pytest.mark.parametrize("raw_mode", [False, True], ids=["typed", "raw"])
def test_the_sidebar_resume_form_refuses_yes_with_a_space(app, store, settings, raw_mode):
    pause_robot(store, settings)
    at = app(PAGE)
    if raw_mode:
        at.sidebar.toggle(key="resume-raw-hitl_demo").set_value(True).run()  # raw mode redraws the form at once
        at.sidebar.text_area(key="resume-rawvalue-hitl_demo").input("yes ")
    else:
        at.sidebar.text_input(key="resume-answer-hitl_demo").input("yes ")
    next(b for b in at.sidebar.button if b.label == "Resume").click().run()
    assert not at.exception
    result = runs.current_result(store, settings, "hitl_demo")
    assert result.outcome == "refused"
    _refused_with(result.values, "yes ")


def test_the_sidebar_update_form_keeps_the_decisions_spaces(app, store, settings):
    pause_robot(store, settings)
    at = app(PAGE)
    at.sidebar.text_input(key="update-decision-hitl_demo").input("yes ")
    next(b for b in at.sidebar.button if b.label == "Update state").click().run()
    assert not at.exception
    assert runs.current_result(store, settings, "hitl_demo").values["decision"] == "yes "
