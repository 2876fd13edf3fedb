"""The robot speaks the language its run started in, word for word, in the save file."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agents import readmodel, runs
from agents.robot.graph import build_graph

WORDS = {
    "ko": {
        "start": "작업 시작",
        "action": "출장 신청서 제출: 부산 2일, 예산 800,000원",
        "question": "이 작업을 실행할까요? (yes/no)",
        "executed": "실행됨: 출장 신청서 제출: 부산 2일, 예산 800,000원",
        "refused": "실행 거부됨",
    },
    "en": {
        "start": "Start the task",
        "action": "Business trip request: Busan, 2 days, budget 800,000 KRW",
        "question": "Execute this? (yes/no)",
        "executed": "Executed: Business trip request: Busan, 2 days, budget 800,000 KRW",
        "refused": "Refused",
    },
}


def _save_file(run_cli: Any) -> dict[str, Any]:
    result = run_cli("inspect", "hitl_demo", "--json")
    assert result.code == 0, result.err
    return json.loads(result.out)


def _paused_chain(words: dict[str, str]) -> list[tuple[int, str, list[str], dict[str, Any], list[tuple[str, Any]]]]:
    """(step, source, next, values, writes) of each checkpoint at the pause, oldest first."""
    human = {"type": "human", "content": words["start"]}
    payload = {"action": words["action"], "question": words["question"]}
    return [
        (-1, "input", ["__start__"], {}, [("messages", [["human", words["start"]]]), ("branch:to:propose", None)]),
        (
            0,
            "loop",
            ["propose"],
            {"messages": [human]},
            [("pending_action", words["action"]), ("branch:to:approval", None)],
        ),
        (
            1,
            "loop",
            ["approval"],
            {"messages": [human], "pending_action": words["action"]},
            [("__interrupt__", [payload])],
        ),
    ]


def _chain(document: dict[str, Any]) -> list[tuple[int, str, list[str], dict[str, Any], list[tuple[str, Any]]]]:
    def value(write: dict[str, Any]) -> Any:
        if write["channel"] == "__interrupt__":  # the interrupt's id is random: its value is compared
            return [entry["value"] for entry in write["value"]]
        return write["value"]

    return [
        (cp["step"], cp["source"], cp["next"], cp["values"], [(w["channel"], value(w)) for w in cp["writes"]])
        for cp in document["checkpoints"]
    ]


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_save_file_reads_word_for_word_in_the_run_language(run_cli, lang):
    words = WORDS[lang]
    paused = run_cli("--lang", lang, "run", "robot")
    assert paused.code == 0, paused.err
    document = _save_file(run_cli)
    assert document["counts"] == {"checkpoints": 3, "writes": 5}
    assert _chain(document) == _paused_chain(words)

    done = run_cli("resume", "hitl_demo", "yes", "--lang", lang)  # --lang after the command, like --db
    assert done.code == 0, done.err
    document = _save_file(run_cli)
    assert document["counts"] == {"checkpoints": 5, "writes": 10}
    chain = _chain(document)
    assert chain[:2] == _paused_chain(words)[:2]
    human, ai = {"type": "human", "content": words["start"]}, {"type": "ai", "content": words["executed"]}
    payload = {"action": words["action"], "question": words["question"]}
    assert chain[2][:4] == _paused_chain(words)[2][:4]
    assert chain[2][4] == [
        ("__resume__", "yes"),
        ("__resume__", ["yes"]),
        ("__interrupt__", [payload]),
        ("decision", "yes"),
        ("branch:to:execute", None),
    ]
    assert chain[3] == (
        2,
        "loop",
        ["execute"],
        {"messages": [human], "pending_action": words["action"], "decision": "yes"},
        [("messages", [ai])],
    )
    assert chain[4] == (
        3,
        "loop",
        [],
        {"messages": [human, ai], "pending_action": words["action"], "decision": "yes"},
        [],
    )


@pytest.mark.parametrize("answer", ["no", "Yes", "네"])
def test_a_korean_run_answered_from_an_english_caller_finishes_in_korean(run_cli, store, answer):
    run_cli("--lang", "ko", "run", "robot")
    result = run_cli("--lang", "en", "resume", "hitl_demo", answer, "--json")
    assert result.code == 0, result.err
    last = json.loads(result.out)["values"]["messages"][-1]["content"]
    assert last.startswith("실행 거부됨: 출장 신청서 제출: 부산 2일, 예산 800,000원")
    saved = list(store.saver.list({"configurable": {"thread_id": "hitl_demo"}}))
    assert len(saved) == 5 and {entry.metadata.get("lang") for entry in saved} == {"ko"}


def test_a_korean_run_answered_yes_from_english_executes_in_korean(store, settings):
    runs.start_run(store, settings, "robot", {}, lang="ko")
    done = runs.resume_thread(store, settings, "hitl_demo", "yes")  # the caller names no language
    assert done.values["messages"][-1].content == WORDS["ko"]["executed"]
    assert readmodel.thread_language(store, "hitl_demo") == "ko"


def test_the_language_comes_from_hitl_lang_when_no_option_names_one(run_cli, monkeypatch):
    monkeypatch.setenv("HITL_LANG", "ko")
    data = json.loads(run_cli("run", "robot", "--json").out)
    assert data["interrupts"][0] == {"action": WORDS["ko"]["action"], "question": WORDS["ko"]["question"]}
    monkeypatch.setenv("HITL_LANG", "en")
    data = json.loads(run_cli("--lang", "ko", "run", "robot", "--thread", "robo-2", "--json").out)  # --lang wins
    assert data["values"]["messages"][0]["content"] == WORDS["ko"]["start"]


def test_an_unknown_language_is_refused(run_cli, monkeypatch, store, settings):
    usage = run_cli("--lang", "fr", "run", "robot")  # argparse's own refusal, with the exit code of bad input
    assert usage.code == 2 and "argument --lang: invalid choice: 'fr'" in usage.err
    monkeypatch.setenv("HITL_LANG", "fr")
    result = run_cli("run", "robot")
    assert result.code == 2 and "HITL_LANG" in result.err
    with pytest.raises(ValueError, match="lang: must be one of en, ko"):
        runs.start_run(store, settings, "robot", {}, lang="fr")
    assert readmodel.head_checkpoint_id(store, "hitl_demo") is None


def test_a_thread_saved_before_languages_and_with_an_action_object_still_shows_and_finishes(store, settings):
    """No ``lang`` in its metadata (English) and a dict ``pending_action``, as the robot saved it before."""
    graph = build_graph(store.saver, store=store)
    config = {"configurable": {"thread_id": "old"}, "metadata": {"agent": "robot", "run_id": "old"}}
    graph.invoke({"messages": [("human", "Please file my business trip request.")]}, config)
    action = {"type": "business_trip_request", "destination": "Busan", "days": 2, "budget_krw": 800_000}
    graph.update_state(config, {"pending_action": action}, as_node="propose")
    graph.invoke(None, config)  # approval asks again, about the object
    assert readmodel.thread_language(store, "old") == "en"
    waiting = runs.current_result(store, settings, "old")
    assert waiting.status == "waiting" and waiting.interrupts[0]["action"] == action
    done = runs.resume_thread(store, settings, "old", "yes", expected_head=waiting.head_checkpoint_id)
    assert done.status == "done" and done.outcome == "executed"
    assert done.values["messages"][-1].content == "Executed: business trip to Busan, 2 days, budget 800,000 KRW"
