"""Agent Inbox's edits at the planner's pauses, on the path that hands the answer to the graph unchecked
(``langgraph dev``, LangGraph Studio, ``Command(resume=...)`` on the compiled graph).

Agent Inbox shows each argument of the action request in a text box and sends every one back as text:
the plan review's ``subtopics`` come as their JSON text, and the gate's ``round``, ``score`` and
``threshold`` (shown for reading) come back with every edit. The plan is read from its text; an edit that
changed a shown argument is refused, never dropped; a refused answer asks again with the refusal first in
the description Agent Inbox shows.
"""

from __future__ import annotations

import json

import pytest
from langgraph.types import Command

from agents.errors import InputError
from agents.lecture.answers import check_answer, check_offered
from agents.lecture.hitl import asked
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from tests.agents.lecture.test_lecture_graph import graph_on, waiting_payload

THREAD = "lecture-inbox-edit"


def config(lang: str = "en") -> dict:
    return {"configurable": {"thread_id": THREAD}, "metadata": {"agent": "lecture", "lang": lang}}


def run(graph, payload, lang: str = "en"):
    graph.invoke(payload, config(lang), durability="sync")
    return graph.get_state(config(lang))


def inbox_edit(question: dict, **typed: str) -> list[dict]:
    """Agent Inbox's edit response: every argument of the action request as the text its box holds."""
    (action,) = question["action_requests"]
    boxes = {key: value if isinstance(value, str) else json.dumps(value) for key, value in action["arguments"].items()}
    return [{"type": "edit", "args": {"action": action["name"], "args": {**boxes, **typed}}}]


def test_the_plan_edited_in_agent_inbox_s_subtopics_box_is_read_from_its_text(store):
    graph = graph_on(store, plan_review=True)
    question = waiting_payload(run(graph, {"request": dict(DEFAULT_LECTURE_INPUT)}))
    plan = question["action_requests"][0]["args"]["subtopics"]
    renamed = [{**plan[0], "title": "생성형 AI 한눈에 보기"}, *plan[1:]]
    edited = run(graph, Command(resume=inbox_edit(question, subtopics=json.dumps(renamed, ensure_ascii=False))))
    again = waiting_payload(edited)
    assert "error" not in again, again.get("error")
    assert (again["stage"], again["plan_version"]) == ("plan_review", 2)
    assert [s["title"] for s in edited.values["subtopics"]] == [s["title"] for s in renamed]


@pytest.mark.parametrize(
    ("lang", "refused"),
    [
        ("en", "The last answer was refused: subtopics: the Subtopics text cannot be read as JSON: it is not valid"),
        ("ko", "직전 답변은 받아들여지지 않았습니다: subtopics: 세부 주제 텍스트를 JSON으로 읽을 수 없습니다"),
    ],
)
def test_a_subtopics_text_that_is_not_json_asks_again_saying_so_first(store, lang, refused):
    graph = graph_on(store, plan_review=True)
    question = waiting_payload(run(graph, {"request": dict(DEFAULT_LECTURE_INPUT)}, lang))
    again = waiting_payload(run(graph, Command(resume=inbox_edit(question, subtopics='[{"id": "s1"')), lang))
    assert again["error"].startswith("subtopics: ")
    description = again["action_requests"][0]["description"]
    assert description.startswith(refused), description
    assert description.endswith(f"\n\n{question['action_requests'][0]['description']}")
    assert again["plan_version"] == 1


@pytest.mark.parametrize(
    ("lang", "refused"),
    [
        (
            "en",
            "The last answer was refused: score: is shown for reading and an edit cannot change it "
            "(the question shows 75, the edit sent 95); edit notes only",
        ),
        ("ko", "직전 답변은 받아들여지지 않았습니다: score: 읽기용으로 보여 주는 값이라 edit로 바꿀 수 없습니다"),
    ],
)
def test_a_gate_edit_of_the_score_is_refused_and_asked_again_not_run_as_a_rework(store, lang, refused):
    graph = graph_on(store)
    first = run(graph, {"request": dict(DEFAULT_LECTURE_INPUT)}, lang)
    question = waiting_payload(first)
    assert (question["stage"], question["round"], question["score"]) == ("gate", 1, 75)
    again = run(graph, Command(resume=inbox_edit(question, score="95", notes="")), lang)
    asked_again = waiting_payload(again)
    assert asked_again["action_requests"][0]["description"].startswith(refused)
    assert (again.values["round"], again.values.get("reworks", 0)) == (1, 0), "no rework ran"
    assert "final_plan" not in again.values


def test_a_gate_edit_that_leaves_the_shown_arguments_as_text_reworks_with_its_notes(store):
    graph = graph_on(store)
    question = waiting_payload(run(graph, {"request": dict(DEFAULT_LECTURE_INPUT)}))
    done = run(graph, Command(resume=inbox_edit(question, notes="쉬는 시간을 명시")))
    assert (done.values["reworks"], done.values["human_notes"]) == (1, "쉬는 시간을 명시")
    assert done.values["outcome"] == "saved"


GATE = asked(
    {
        "stage": "gate",
        "question": "?",
        "options": ["rework", "edit_plan", "save", "reject"],
        "round": 1,
        "max_rounds": 3,
        "score": 75,
        "threshold": 80,
        "plan_version": 1,
    }
)


@pytest.mark.parametrize(
    ("args", "field"),
    [
        ({"round": "2", "notes": "x"}, "round"),
        ({"threshold": 60}, "threshold"),
        ({"score": "seventy-five", "notes": "x"}, "score"),
        ({"plan_version": "3", "notes": "x"}, "plan_version"),
    ],
)
def test_every_path_refuses_an_edit_of_a_shown_argument_before_anything_is_written(args, field):
    # ``check_offered`` is what ``agents.runs`` runs on the waiting question for every path but the graph's own.
    for edit in (
        [{"type": "edit", "args": {"action": "save_lecture_plan", "args": args}}],  # Agent Inbox
        {"decisions": [{"type": "edit", "edited_action": {"name": "save_lecture_plan", "args": args}}]},  # LangChain
    ):
        answer = check_answer(edit)
        with pytest.raises(InputError) as refused:
            check_offered(GATE, answer)
        assert refused.value.field == field
        assert "edit notes only" in refused.value.render("en")
        assert "notes만 고치세요" in refused.value.render("ko")


@pytest.mark.parametrize("shown", [{"round": 1, "score": 75, "threshold": 80}, {"round": " 1", "score": "75"}])
def test_shown_arguments_sent_back_unchanged_as_they_were_or_as_text_are_fine(shown):
    answer = check_answer([{"type": "edit", "args": {"action": "save_lecture_plan", "args": {**shown, "notes": "n"}}}])
    check_offered(GATE, answer)
    assert (answer["action"], answer["notes"]) == ("rework", "n")
    assert check_answer(answer) == answer, "the checked answer is checked again unchanged (the pause does)"
