"""The lecture planner's graph: fan-out, reducers, gate, rounds, reject, plan edits, parallel starts."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage
from langchain_core.runnables import RunnableLambda
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from agents import runs
from agents.common import MissingCheckpointerError
from agents.errors import InputError
from agents.lecture.answers import check_answer
from agents.lecture.graph import build_graph
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from agents.lecture.model.chat import EmbeddedChatModel, answer
from agents.lecture.plans import PlanEditError, apply_plan_edit, plans_dir_for
from agents.lecture.prompts import REVIEWERS, task_of
from agents.lecture.research import CorpusResearch
from agents.lecture.spec import SPEC, options_from_settings
from agents.nodelog import node_runs
from agents.runtime import load_settings

THREAD = "lecture-test"


def low_scoring_model(score: int = 50) -> RunnableLambda:
    """The embedded model, except that every reviewer gives ``score``: no draft ever passes."""

    def reply(messages):
        task = task_of("\n".join(m.text for m in messages if m.type == "system")) or ""
        if task.startswith("review_"):
            return AIMessage(content=json.dumps({"score": score, "feedback": [f"{task} wants more"]}))
        return AIMessage(content=answer(messages))

    return RunnableLambda(reply)


def graph_on(store, **options):
    options.setdefault("model", EmbeddedChatModel(latency=0))
    options.setdefault("research_source", CorpusResearch())
    return build_graph(store.saver, store=store, **options)


def config(thread: str = THREAD) -> dict:
    return {
        "configurable": {"thread_id": thread},
        "metadata": {"agent": "lecture", "run_id": "r"},
        "max_concurrency": 32,
    }


def run(graph, payload, thread: str = THREAD) -> dict:
    graph.invoke(payload, config(thread), durability="sync")
    return graph.get_state(config(thread))


def start(graph, thread: str = THREAD):
    return run(graph, {"request": dict(DEFAULT_LECTURE_INPUT)}, thread)


def waiting_payload(snapshot) -> dict:
    assert snapshot.interrupts, f"not waiting; next={snapshot.next}"
    return snapshot.interrupts[0].value


def rows(store, node: str | None = None) -> list[dict]:
    return [r for r in node_runs(store, thread_id=THREAD) if node is None or r["node"] == node]


# --- fan-out and reducers -----------------------------------------------------------


def test_one_research_task_per_subtopic_in_one_superstep(store):
    snapshot = start(graph_on(store))
    subtopics = snapshot.values["subtopics"]
    research_rows = rows(store, "research")
    assert len(subtopics) == 5
    assert len(research_rows) == 5 == len(snapshot.values["research"])
    assert sorted(r["label"] for r in research_rows) == sorted(s["title"] for s in subtopics)
    assert len({r["step"] for r in research_rows}) == 1
    assert sorted(r["subtopic_id"] for r in snapshot.values["research"]) == sorted(s["id"] for s in subtopics)
    assert sorted(r["label"] for r in rows(store) if r["node"].startswith("review_")) == sorted(REVIEWERS)


def test_reducer_counts_after_two_rework_rounds(store):
    graph = graph_on(store, model=low_scoring_model())
    start(graph)
    run(graph, Command(resume="rework"))
    snapshot = run(graph, Command(resume={"action": "rework", "notes": "실습을 늘려 주세요"}))
    values = snapshot.values
    assert waiting_payload(snapshot)["round"] == 3
    assert values["round"] == 3 and values["reworks"] == 2
    assert len(values["research"]) == 5 == len(values["subtopics"])
    assert len(rows(store, "research")) == 5  # rework never researches again
    assert len(values["reviews"]) == 9
    assert sorted((r["round"], r["reviewer"]) for r in values["reviews"]) == sorted(
        (n, reviewer) for n in (1, 2, 3) for reviewer in REVIEWERS
    )
    assert [s["round"] for s in values["scores"]] == [1, 2, 3]
    assert values["human_notes"] == "실습을 늘려 주세요"
    assert len(rows(store, "write")) == 3


def test_the_round_limit_leaves_only_save_or_reject(store):
    graph = graph_on(store, model=low_scoring_model(), max_rounds=2)
    first = start(graph)
    assert waiting_payload(first)["options"] == ["rework", "edit_plan", "save", "reject"]
    second = run(graph, Command(resume="rework"))
    assert waiting_payload(second)["options"] == ["save", "reject"]
    refused = run(graph, Command(resume="rework"))
    payload = waiting_payload(refused)
    assert "round limit" in payload["error"] and "save or reject" in payload["error"]
    assert refused.values["round"] == 2 and refused.values["reworks"] == 1
    assert len(rows(store, "write")) == 2
    done = run(graph, Command(resume="save"))
    assert not done.next
    assert done.values["outcome"] == "saved_as_is"
    assert Path(done.values["plan_path"]).read_text(encoding="utf-8") == done.values["draft"]


def test_reject_ends_the_run_as_rejected_and_saves_nothing(store):
    graph = graph_on(store)
    start(graph)
    done = run(graph, Command(resume="reject"))
    assert not done.next and not done.interrupts
    assert done.values["outcome"] == "rejected"
    assert "final_plan" not in done.values
    assert not rows(store, "save")
    assert not (plans_dir_for(store.path) / f"{THREAD}.md").exists()


def test_rework_passes_and_saves_a_per_thread_file(store):
    graph = graph_on(store)
    first = start(graph)
    assert waiting_payload(first)["score"] == 75
    done = run(graph, Command(resume={"action": "rework", "notes": "쉬는 시간 확인"}))
    assert [(s["score"], s["passed"]) for s in done.values["scores"]] == [(75, False), (100, True)]
    assert done.values["outcome"] == "saved"
    assert Path(done.values["plan_path"]) == plans_dir_for(store.path) / f"{THREAD}.md"
    assert "쉬는 시간 확인" in done.values["final_plan"]
    other = start(graph, "lecture-other")
    run(graph, Command(resume="save"), "lecture-other")
    assert sorted(p.name for p in plans_dir_for(store.path).iterdir()) == ["lecture-other.md", f"{THREAD}.md"]
    assert other.values["draft"] != done.values["final_plan"]


# --- the gate rule ---------------------------------------------------------------------


def test_a_lower_threshold_lets_the_first_draft_pass(store):
    done = start(graph_on(store, threshold=70))
    assert done.values["scores"] == [{"round": 1, "score": 75, "threshold": 70, "passed": True}]
    assert done.values["outcome"] == "saved"
    assert not rows(store, "decide")


def test_threshold_rounds_and_plan_review_come_from_the_settings(db_path):
    settings = load_settings(
        db_override=str(db_path),
        secrets={},
        environ={"HITL_GATE_THRESHOLD": "70", "HITL_MAX_ROUNDS": "5", "HITL_PLAN_REVIEW": "on"},
    )
    options = options_from_settings(settings.agent("lecture"))
    assert (options["threshold"], options["max_rounds"], options["plan_review"]) == (70, 5, True)
    default = options_from_settings(load_settings(db_override=str(db_path), secrets={}, environ={}).agent("lecture"))
    assert (default["threshold"], default["max_rounds"], default["plan_review"]) == (80, 3, False)
    for name, bad in (("HITL_GATE_THRESHOLD", "101"), ("HITL_MAX_ROUNDS", "0"), ("HITL_PLAN_REVIEW", "maybe")):
        with pytest.raises(InputError, match=name):
            refused = load_settings(db_override=str(db_path), secrets={}, environ={name: bad})  # typed: refused here
            options_from_settings(refused.agent("lecture"))


def test_services_never_show_keys(db_path):
    settings = load_settings(
        db_override=str(db_path),
        secrets={},
        environ={"GOOGLE_API_KEY": "sk-secret-123", "TAVILY_API_KEY": "tv-secret-456"},
    )
    services = settings.agent("lecture").services
    research = services.research_text()
    research_shown = research if isinstance(research, str) else research.render("en")
    shown = " ".join([repr(services), services.model_text().render("en"), research_shown])
    assert "Gemini" in shown and "Tavily" in shown
    assert "secret" not in shown


def test_the_factory_requires_a_checkpointer():
    with pytest.raises(MissingCheckpointerError):
        build_graph(None, model=EmbeddedChatModel(latency=0), research_source=CorpusResearch())


# --- answers -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("save", {"action": "save", "notes": ""}),
        (" rework ", {"action": "rework", "notes": ""}),
        ({"action": "rework", "notes": " 더 쉽게 "}, {"action": "rework", "notes": "더 쉽게"}),
        (
            {"action": "edit_plan", "subtopics": ["A", "B", "C"]},
            {"action": "edit_plan", "notes": "", "subtopics": ["A", "B", "C"]},
        ),
    ],
)
def test_answers_are_normalised(raw, expected):
    assert check_answer(raw) == expected


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ("yes", "action"),
        ("Save", "action"),
        (["save"], "action"),
        ({"action": "save", "notes": "x"}, "notes"),
        ({"action": "edit_plan"}, "subtopics"),
        ({"action": "edit_plan", "subtopics": ["A"]}, "subtopics"),
        ({"action": "edit_plan", "subtopics": [1, 2, 3]}, "subtopics"),
        ({"action": "edit_plan", "subtopics": ["A", "a", "B"]}, "subtopics"),
        ({"action": "rework", "extra": 1}, "extra"),
        ({"action": "rework", "notes": "x" * 1001}, "notes"),  # the name it was typed under
    ],
)
def test_bad_answers_are_refused_naming_the_field(raw, field):
    with pytest.raises(InputError) as caught:
        check_answer(raw)
    assert caught.value.field == field


# --- plan edits ------------------------------------------------------------------------

PLAN = [{"id": f"s{n}", "title": f"T{n}", "description": f"D{n}"} for n in range(1, 5)]


def test_plan_edit_adds_removes_and_renames_with_fresh_ids():
    plan, next_number = apply_plan_edit(
        PLAN, set(), [{"id": "s2", "title": "T2 renamed"}, {"id": "s1", "title": "T1"}, "New one"], 5
    )
    assert plan == [
        {"id": "s2", "title": "T2 renamed", "description": "D2"},
        {"id": "s1", "title": "T1", "description": "D1"},
        {"id": "s5", "title": "New one", "description": ""},
    ]
    assert next_number == 6


@pytest.mark.parametrize(
    ("requested", "message"),
    [
        ([{"id": "s1", "title": "T1 changed"}, "a", "b"], "already researched"),
        ([{"id": "s1", "title": "T1", "description": "other"}, "a", "b"], "already researched"),
        ([{"id": "s9", "title": "X"}, "a", "b"], "no subtopic 's9'"),
        (["a", "b"], "3 to 5"),
        (["a", "b", "c", "d", "e", "f"], "3 to 5"),
        (["a", "A", "b"], "appears twice"),
        (PLAN, "changes nothing"),
        ("s1", "JSON list"),
    ],
)
def test_plan_edit_refusals(requested, message):
    with pytest.raises(PlanEditError, match=message) as caught:
        apply_plan_edit(PLAN, {"s1"}, requested, 5)
    assert caught.value.field == "subtopics"


def test_plan_review_edits_bump_the_version_then_research_follows_the_plan(store):
    graph = graph_on(store, plan_review=True)
    first = start(graph)
    payload = waiting_payload(first)
    assert (payload["stage"], payload["plan_version"], payload["researched"]) == ("plan_review", 1, [])
    assert not rows(store, "research")
    kept = [{"id": s["id"], "title": s["title"]} for s in first.values["subtopics"][:3]]
    renamed = [*kept[:2], {"id": "s3", "title": "ChatGPT 실전 과제"}]
    second = run(graph, Command(resume={"action": "edit_plan", "subtopics": renamed}))
    assert waiting_payload(second)["plan_version"] == 2
    third = run(graph, Command(resume={"action": "edit_plan", "subtopics": [*renamed, "회의록 요약 실습"]}))
    assert waiting_payload(third)["plan_version"] == 3
    assert [s["id"] for s in third.values["subtopics"]] == ["s1", "s2", "s3", "s6"]
    at_gate = run(graph, Command(resume="approve"))
    assert waiting_payload(at_gate)["stage"] == "gate"
    assert sorted(r["label"] for r in rows(store, "research")) == sorted(
        ["생성형 AI 핵심 개념과 용어", "프롬프트 작성 기본", "ChatGPT 실전 과제", "회의록 요약 실습"]
    )
    assert sorted(r["subtopic_id"] for r in at_gate.values["research"]) == ["s1", "s2", "s3", "s6"]


def test_a_gate_plan_edit_keeps_researched_subtopics_and_refuses_redefining_them(store):
    graph = graph_on(store, model=low_scoring_model())
    first = start(graph)
    before = {r["subtopic_id"]: r for r in first.values["research"]}
    plan = [{"id": s["id"], "title": s["title"]} for s in first.values["subtopics"]]
    redefined = [{"id": "s1", "title": "다른 주제"}, *plan[1:]]
    refused = run(graph, Command(resume={"action": "edit_plan", "subtopics": redefined}))
    assert "already researched" in waiting_payload(refused)["error"]
    assert refused.values["plan_version"] == 1 and refused.values["subtopics"] == first.values["subtopics"]
    edited = [*plan[:3], "회의록 요약 실습"]  # removes s4 and s5, adds s6
    after = run(graph, Command(resume={"action": "edit_plan", "subtopics": edited, "notes": "요약 실습 추가"}))
    assert after.values["plan_version"] == 2 and after.values["round"] == 2
    research_rows = rows(store, "research")
    assert len(research_rows) == 6 and research_rows[-1]["label"] == "회의록 요약 실습"
    kept = {r["subtopic_id"]: r for r in after.values["research"]}
    assert all(kept[key] == before[key] for key in ("s1", "s2", "s3"))
    assert [s["id"] for s in after.values["subtopics"]] == ["s1", "s2", "s3", "s6"]
    assert after.values["subtopics"][:3] == first.values["subtopics"][:3]
    assert "회의록 요약 실습" in after.values["draft"]


# --- real parallelism and the runs path ------------------------------------------------------


def test_research_and_reviewers_of_one_fan_out_start_together(store, db_path, monkeypatch):
    monkeypatch.setenv("HITL_MODEL_LATENCY", "0.2")
    settings = load_settings(db_override=str(db_path), secrets={})
    result = runs.start_run(store, settings, "lecture", dict(DEFAULT_LECTURE_INPUT), thread_id=THREAD)
    assert result.status == "waiting"
    research_rows = rows(store, "research")
    assert len(research_rows) == 5
    # Parallel, not a clock reading: every task started before any of them ended (all intervals
    # overlap), which a sequential run could not do however fast or loaded the machine is.
    assert max(r["started_at"] for r in research_rows) < min(r["ended_at"] for r in research_rows)
    durations = [r["ended_at"] - r["started_at"] for r in research_rows]
    assert min(durations) >= 0.15  # the simulated latency was really waited, in parallel
    reviews = [r for r in rows(store) if r["node"].startswith("review_")]
    assert len(reviews) == 3
    assert max(r["started_at"] for r in reviews) < min(r["ended_at"] for r in reviews)


def test_runs_path_generates_a_thread_id_and_resumes(store, settings):
    result = runs.start_run(store, settings, "lecture", dict(DEFAULT_LECTURE_INPUT))
    assert re.fullmatch(r"lecture-[0-9a-f]{8}", result.thread_id)
    assert result.status == "waiting" and result.interrupts[0]["score"] == 75
    done = runs.resume_thread(store, settings, result.thread_id, "save")
    assert done.status == "done" and done.values["outcome"] == "saved_as_is"
    assert SPEC.run.max_concurrency and SPEC.run.max_concurrency >= 16


def test_runs_refuses_bad_input_naming_the_field(store, settings):
    values = dict(DEFAULT_LECTURE_INPUT, duration="   ")
    with pytest.raises(InputError) as caught:
        runs.start_run(store, settings, "lecture", values)
    assert caught.value.field == "duration"
    assert not node_runs(store)


def test_graph_runs_on_any_checkpointer_without_a_store():
    graph = build_graph(InMemorySaver(), model=EmbeddedChatModel(latency=0), research_source=CorpusResearch())
    cfg = {"configurable": {"thread_id": "mem"}}
    graph.invoke({"request": dict(DEFAULT_LECTURE_INPUT)}, cfg)
    graph.invoke(Command(resume="save"), cfg)
    values = graph.get_state(cfg).values
    assert values["outcome"] == "saved_as_is" and values["plan_path"] == ""


def test_the_plans_folder_setting_places_the_saved_plan(store, db_path, tmp_path, monkeypatch):
    monkeypatch.setenv("HITL_PLANS_DIR", str(tmp_path / "replica-plans"))
    settings = load_settings(db_override=str(db_path), secrets={})
    assert settings.agent("lecture").plans_dir == str(tmp_path / "replica-plans")
    started = runs.start_run(store, settings, "lecture", dict(DEFAULT_LECTURE_INPUT), thread_id=THREAD)
    done = runs.resume_thread(store, settings, started.thread_id, "save")
    assert Path(done.values["plan_path"]) == tmp_path / "replica-plans" / f"{THREAD}.md"
    assert not (plans_dir_for(store.path) / f"{THREAD}.md").exists()
