"""The lecture planner asks, and explains a refused answer, in the language its run started in."""

from __future__ import annotations

import json

from langchain_core.messages import AIMessage
from langchain_core.runnables import RunnableLambda
from langgraph.types import Command

from agents import lifecycle
from agents.lecture.graph import build_graph
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from agents.lecture.model.chat import answer
from agents.lecture.prompts import task_of
from agents.lecture.research import CorpusResearch

# max_rounds=1: the first draft is the last, so the gate asks for save or reject only.
GATE_KO = "초안 점수가 기준보다 낮고 라운드 한도에 이르렀습니다. 그대로 저장할까요, 아니면 거절할까요?"
GATE_EN = "The draft scored below the threshold, and the round limit is reached. Save as is, or reject?"


def _low_scores(messages):
    task = task_of("\n".join(m.text for m in messages if m.type == "system")) or ""
    if task.startswith("review_"):
        return AIMessage(content=json.dumps({"score": 40, "feedback": [f"{task} wants more"]}))
    return AIMessage(content=answer(messages))


def _config(lang: str | None) -> dict:
    metadata = {"agent": "lecture", "run_id": "r"} | ({"lang": lang} if lang else {})
    return {"configurable": {"thread_id": "lecture-lang"}, "metadata": metadata, "max_concurrency": 32}


def _graph(store):
    model = RunnableLambda(_low_scores)
    return build_graph(store.saver, store=store, model=model, research_source=CorpusResearch(), max_rounds=1)


def test_a_korean_run_asks_at_the_gate_in_korean_and_refuses_in_korean(store):
    graph = _graph(store)
    graph.invoke({"request": dict(DEFAULT_LECTURE_INPUT)}, _config("ko"), durability="sync")
    payload = graph.get_state(_config("ko")).interrupts[0].value
    assert payload["question"] == GATE_KO and payload["options"] == ["save", "reject"]
    (item,) = lifecycle.inbox(store)
    assert item.reason == GATE_KO and item.reason_in("en") == GATE_EN
    graph.invoke(Command(resume="rework"), _config("ko"), durability="sync")
    refused = graph.get_state(_config("ko")).interrupts[0].value
    assert refused["error"] == (
        "action: rework는 할 수 없습니다: 라운드 한도에 이르렀습니다(초안 1/1, HITL_MAX_ROUNDS). "
        "save 또는 reject를 고르세요"
    )


def test_a_run_without_a_language_asks_in_english(store):
    graph = _graph(store)
    graph.invoke({"request": dict(DEFAULT_LECTURE_INPUT)}, _config(None), durability="sync")
    assert graph.get_state(_config(None)).interrupts[0].value["question"] == GATE_EN
    graph.invoke(Command(resume="rework"), _config(None), durability="sync")
    refused = graph.get_state(_config(None)).interrupts[0].value
    assert refused["error"].startswith("action: rework is not possible: the round limit is reached (draft 1 of 1")
