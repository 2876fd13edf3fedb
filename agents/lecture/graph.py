"""The lecture planner's graph: a parallel pipeline with a score gate and a human decision.

``validate`` → ``plan`` → [``plan_review``, optional] → one ``research`` task per
subtopic (``Send``) → ``write`` → ``review_content`` ‖ ``review_time_allocation``
‖ ``review_difficulty`` → ``gate`` → ``save`` on a pass, else ``decide``.

The gate rule: the combined score of a round is the mean of that round's three
review scores, rounded half up (:func:`combined_score`),
recomputed from the round's own reviews every round; the round passes when it
is at least the threshold (default 80, setting ``HITL_GATE_THRESHOLD``).

``decide`` pauses (``interrupt()``) with the score, each reviewer's feedback and
the options: ``rework`` (optional notes; ``write`` revises the flagged items,
the reviewers score the new draft afresh, the gate runs again), ``edit_plan``
(change the subtopics, research only the new ones, then rework), ``save`` (as
is) or ``reject`` (the run ends, recorded as rejected). After ``max_rounds``
drafts (default 3, setting ``HITL_MAX_ROUNDS``) only ``save`` and ``reject``
remain. An answer that does not fit the question (``rework`` at the limit, a
refused plan edit) pauses again with the reason in the payload's ``error``:
the node asks again instead of failing the run.

Parallelism: the nodes are sync (``SqliteSaver`` has no async support) and run
in LangGraph's thread pool, whose size is the run config's ``max_concurrency``
(the spec sets it, so every research task of a fan-out and the three
reviewers start together instead of a few at a time).

Research runs once per subtopic: the fan-out sends only subtopics without a
result, so a rework, or a resume after a crash, never researches a finished
subtopic again.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Send, interrupt

from agents.common import node_decorator, require_checkpointer
from agents.db import Store
from agents.errors import InputError
from agents.lecture import llm, research
from agents.lecture.brains import ChatModel, make_plan, research_subtopic, review_draft, write_draft
from agents.lecture.inputs import validate_human_notes, validate_lecture_input
from agents.lecture.plans import apply_plan_edit, plans_dir_for, save_plan_file
from agents.lecture.prompts import REVIEWERS
from agents.lecture.research import ResearchSource
from agents.lecture.state import (
    LectureRequest,
    LectureState,
    ResearchResult,
    ResearchTask,
    Review,
    RoundReview,
    RoundScore,
)
from agents.settings import Settings, load_settings

AGENT_NAME = "lecture"
DEFAULT_THRESHOLD = 80
DEFAULT_MAX_ROUNDS = 3
GATE_QUESTION = "The draft scored below the threshold. Rework, edit the plan, save as is, or reject?"
PLAN_QUESTION = "Review the plan: approve it, or edit the subtopics (add, remove, rename)."
#: Every answer the planner understands; which ones a pause accepts depends on the pause.
ACTIONS = ("rework", "edit_plan", "save", "reject", "approve")
PLAN_ACTIONS = ("approve", "edit_plan")
#: Settings that choose the model and the research source (keys included, never shown).
SERVICE_SETTINGS = (*llm.KEY_NAMES, llm.MODELS_SETTING, "HITL_MODEL_LATENCY", research.TAVILY_KEY_NAME)


@dataclass(frozen=True)
class LectureServices:
    """Which model and research source the graph uses, read from the settings.

    Hashable, so the store can cache one compiled graph per configuration;
    the values (which may hold keys) stay out of ``repr``.
    """

    values: tuple[tuple[str, str], ...] = field(default=(), repr=False)

    @classmethod
    def from_settings(cls, settings: Settings) -> LectureServices:
        """Keeps the settings that choose the model and the research source."""
        return cls(tuple((name, str(settings.get(name))) for name in SERVICE_SETTINGS if settings.get(name)))

    @property
    def mapping(self) -> dict[str, str]:
        """The values as a settings mapping."""
        return dict(self.values)

    def chat_model(self) -> ChatModel:
        """Gemini with a key, the embedded model without."""
        return llm.chat_model_from_settings(self.mapping)

    def research_source(self) -> ResearchSource:
        """Tavily with a key, the bundled corpus without."""
        return research.research_source_from_settings(self.mapping)

    def describe_model(self) -> str:
        """Names the model (never a key)."""
        return llm.describe_model(self.mapping)

    def describe_research(self) -> str:
        """Names the research source (never a key)."""
        return self.research_source().describe()


# ---------------------------------------------------------------------------
# Answers of the two pauses
# ---------------------------------------------------------------------------


def check_answer(value: Any) -> dict[str, Any]:
    """Checks the shape of an answer and returns it as ``{"action", "notes"[, "subtopics"]}``.

    Accepted: ``rework``, ``save``, ``reject``, ``approve`` as text, or an object
    ``{"action": ..., "notes": "..."}``; ``edit_plan`` needs an object with
    ``"subtopics": [...]``. Whether the action fits the pause (and the round
    limit) is checked by the pause itself.

    Raises:
        InputError: Naming ``action``, ``notes`` or ``subtopics``.
    """
    if isinstance(value, str):
        value = {"action": value}
    if not isinstance(value, Mapping):
        raise InputError("action", f"answer one of {', '.join(ACTIONS)} (text or a JSON object)")
    unknown = sorted(set(value) - {"action", "notes", "subtopics"})
    if unknown:
        raise InputError(unknown[0], "is not part of an answer; use action, notes, subtopics")
    action = value.get("action")
    action = action.strip() if isinstance(action, str) else action
    if action not in ACTIONS:
        raise InputError("action", f"must be one of {', '.join(ACTIONS)}; got {value.get('action')!r}")
    answer: dict[str, Any] = {"action": action, "notes": validate_human_notes(value.get("notes"))}
    if answer["notes"] and action not in ("rework", "edit_plan"):
        raise InputError("notes", "notes go with rework or edit_plan only")
    if action == "edit_plan":
        if not isinstance(value.get("subtopics"), list):
            raise InputError("subtopics", 'edit_plan needs "subtopics": a JSON list of {id?, title, description?}')
        answer["subtopics"] = value["subtopics"]
    elif "subtopics" in value:
        raise InputError("subtopics", "subtopics go with edit_plan only")
    return answer


def gate_options(round_number: int, max_rounds: int) -> list[str]:
    """What the human may answer at the gate: rework and edit_plan only below the round limit."""
    if round_number < max_rounds:
        return ["rework", "edit_plan", "save", "reject"]
    return ["save", "reject"]


def _refusal(action: str, options: list[str], round_number: int, max_rounds: int) -> str:
    if action in ("rework", "edit_plan") and round_number >= max_rounds:
        return (f"{action} is not possible: the round limit is reached (draft {round_number} of {max_rounds}, "
                f"HITL_MAX_ROUNDS); choose save or reject")
    return f"{action!r} is not an answer to this question; choose {', '.join(options)}"


def _ask(payload: dict[str, Any], accept: Callable[[dict[str, Any]], dict[str, Any]]) -> dict[str, Any]:
    """Pauses until an answer is accepted; a refused answer pauses again, with the reason.

    ``interrupt()`` may be called several times in one node: on resume, the
    node runs again and each call returns the answer given to it, in order.
    """
    error = ""
    while True:
        raw = interrupt({**payload, "error": error} if error else payload)
        try:
            return accept(check_answer(raw))
        except InputError as refused:
            error = str(refused)


# ---------------------------------------------------------------------------
# Routing helpers (pure)
# ---------------------------------------------------------------------------


def researched_ids(state: LectureState) -> set[str]:
    """Ids of subtopics that have a research result."""
    return {result["subtopic_id"] for result in state.get("research", [])}


def plan_research(state: LectureState) -> list[ResearchResult]:
    """The research results of the current plan, in plan order (first result per subtopic)."""
    by_id: dict[str, Any] = {}
    for result in state.get("research", []):
        by_id.setdefault(result["subtopic_id"], result)
    return [by_id[s["id"]] for s in state["subtopics"] if s["id"] in by_id]


def fan_out(state: LectureState) -> list[Send] | Literal["write"]:
    """One ``research`` task per subtopic without a result; straight to ``write`` when none is missing."""
    done = researched_ids(state)
    missing = [s for s in state["subtopics"] if s["id"] not in done]
    if not missing:
        return "write"
    return [Send("research", ResearchTask(lecture=state["lecture"], subtopic=s)) for s in missing]


def round_reviews(state: LectureState, round_number: int) -> list[RoundReview]:
    """The reviews of one round."""
    return [review for review in state.get("reviews", []) if review["round"] == round_number]


def combined_score(reviews: Sequence[Review]) -> int:
    """The gate's score: the mean of one round's review scores, rounded half up.

    Raises:
        ValueError: No reviews.
    """
    if not reviews:
        raise ValueError("combined_score needs at least one review")
    return math.floor(sum(review["score"] for review in reviews) / len(reviews) + 0.5)


def gate_verdict(reviews: list[RoundReview], round_number: int, threshold: int) -> RoundScore:
    """The gate rule: mean of the round's scores (half up) against the threshold."""
    score = combined_score([Review(reviewer=r["reviewer"], score=r["score"], feedback=r["feedback"])
                            for r in reviews])
    return RoundScore(round=round_number, score=score, threshold=threshold, passed=score >= threshold)


# ---------------------------------------------------------------------------
# The graph
# ---------------------------------------------------------------------------


def build_graph(
    checkpointer: Any,
    *,
    store: Store | None = None,
    model: ChatModel | None = None,
    research_source: ResearchSource | None = None,
    services: LectureServices | None = None,
    threshold: int = DEFAULT_THRESHOLD,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    plan_review: bool = False,
    plans_dir: str | Path | None = None,
) -> CompiledStateGraph:
    """Builds the lecture planner on a checkpointer.

    Args:
        checkpointer: Required; a graph without one could never be resumed.
        store: When given, every node call is written to its node log, and
            plans are saved next to its database (``<db folder>/plans``).
        model: The chat model; default from ``services``.
        research_source: Where research looks; default from ``services``.
        services: Model and research settings; default read by ``load_settings()``.
        threshold: The gate's pass mark (0-100).
        max_rounds: Most drafts per run (the first included); at the limit the
            human may only save or reject.
        plan_review: Pause after ``plan`` so a human can edit the subtopics.
        plans_dir: Where ``save`` writes ``<thread id>.md``; default next to
            the store's database; without either, the plan is kept in the state only.

    Raises:
        MissingCheckpointerError: ``checkpointer`` is missing.
        ValueError: A threshold or round limit out of range.
    """
    saver = require_checkpointer(checkpointer, AGENT_NAME)
    if not 0 <= threshold <= 100 or max_rounds < 1:
        raise ValueError(f"threshold must be 0-100 and max_rounds at least 1; got {threshold}, {max_rounds}")
    if model is None or research_source is None:
        services = services or LectureServices.from_settings(load_settings())
    chat = model if model is not None else services.chat_model()  # type: ignore[union-attr]
    source = research_source if research_source is not None else services.research_source()  # type: ignore[union-attr]
    folder = Path(plans_dir) if plans_dir is not None else (plans_dir_for(store.path) if store else None)
    log = node_decorator(store, AGENT_NAME)

    def validate(state: LectureState) -> dict[str, Any]:
        """Checks and trims the six fields."""
        return {"lecture": validate_lecture_input(state["request"])}

    def plan(state: LectureState) -> dict[str, Any]:
        """Plans 3 to 5 subtopics (plan version 1) and opens round 1."""
        subtopics = make_plan(chat, state["lecture"])
        return {"subtopics": subtopics, "plan_version": 1, "next_subtopic": len(subtopics) + 1,
                "round": 1, "reworks": 0}

    def edit(state: LectureState, answer: dict[str, Any]) -> dict[str, Any]:
        subtopics, next_number = apply_plan_edit(state["subtopics"], researched_ids(state),
                                                 answer["subtopics"], state["next_subtopic"])
        return {"subtopics": subtopics, "next_subtopic": next_number,
                "plan_version": state["plan_version"] + 1}

    def review_plan(state: LectureState) -> dict[str, Any]:
        """Pauses so a human approves the plan or edits it (each edit bumps the version)."""
        payload = {"question": PLAN_QUESTION, "stage": "plan_review", "plan_version": state["plan_version"],
                   "subtopics": state["subtopics"], "researched": sorted(researched_ids(state)),
                   "options": list(PLAN_ACTIONS)}

        def accept(answer: dict[str, Any]) -> dict[str, Any]:
            if answer["action"] not in PLAN_ACTIONS:
                raise InputError("action", _refusal(answer["action"], list(PLAN_ACTIONS), 0, 1))
            if answer["action"] == "approve":
                return {"decision": "approve"}
            return {**edit(state, answer), "decision": "edit_plan"}

        return _ask(payload, accept)

    review_plan.__name__ = "plan_review"

    def research_one(task: ResearchTask) -> dict[str, Any]:
        """Researches one subtopic; returns only its own result."""
        return {"research": [research_subtopic(chat, source, task["lecture"], task["subtopic"])]}

    research_one.__name__ = "research"

    def write(state: LectureState) -> dict[str, Any]:
        """Writes the draft of the current round; a rework revises the previous one."""
        round_number = state["round"]
        feedback = [Review(reviewer=r["reviewer"], score=r["score"], feedback=r["feedback"])
                    for r in round_reviews(state, round_number - 1)]
        draft = write_draft(chat, state["lecture"], state["subtopics"], plan_research(state),
                            round=round_number, feedback=feedback, human_notes=state.get("human_notes", ""),
                            previous_draft=state.get("draft") if round_number > 1 else None)
        return {"draft": draft}

    def make_reviewer(reviewer: str) -> Callable[[LectureState], dict[str, Any]]:
        def review(state: LectureState) -> dict[str, Any]:
            verdict = review_draft(chat, reviewer, state["lecture"], state["subtopics"], state["draft"],
                                   plan_research(state))
            return {"reviews": [RoundReview(round=state["round"], **verdict)]}

        review.__name__ = f"review_{reviewer}"
        review.__doc__ = f"The {reviewer} reviewer scores the current draft; returns only its review."
        return review

    def gate(state: LectureState) -> dict[str, Any]:
        """Scores the round from its own three reviews against the threshold."""
        reviews = round_reviews(state, state["round"])
        if sorted(r["reviewer"] for r in reviews) != sorted(REVIEWERS):
            raise RuntimeError(f"round {state['round']} has reviews {[r['reviewer'] for r in reviews]}")
        return {"scores": [gate_verdict(reviews, state["round"], threshold)]}

    def decide(state: LectureState) -> dict[str, Any]:
        """Pauses for the human's decision on a draft that failed the gate."""
        round_number = state["round"]
        verdict = state["scores"][-1]
        options = gate_options(round_number, max_rounds)
        payload = {
            "question": GATE_QUESTION, "stage": "gate", "round": round_number, "max_rounds": max_rounds,
            "score": verdict["score"], "threshold": verdict["threshold"], "plan_version": state["plan_version"],
            "reviews": [{"reviewer": r["reviewer"], "score": r["score"], "feedback": r["feedback"]}
                        for r in round_reviews(state, round_number)],
            "options": options,
        }

        def accept(answer: dict[str, Any]) -> dict[str, Any]:
            action = answer["action"]
            if action not in options:
                raise InputError("action", _refusal(action, options, round_number, max_rounds))
            if action == "save":
                return {"decision": "save"}
            if action == "reject":
                return {"decision": "reject", "outcome": "rejected"}
            update = edit(state, answer) if action == "edit_plan" else {}
            return {**update, "decision": action, "round": round_number + 1,
                    "reworks": state.get("reworks", 0) + 1, "human_notes": answer["notes"]}

        return _ask(payload, accept)

    def save(state: LectureState, config: RunnableConfig) -> dict[str, Any]:
        """Saves the final plan in the state and as ``<thread id>.md``."""
        passed = bool(state["scores"]) and state["scores"][-1]["passed"]
        markdown = state["draft"]
        path = ""
        if folder is not None:
            path = str(save_plan_file(folder, config["configurable"]["thread_id"], markdown))
        return {"final_plan": markdown, "plan_path": path, "outcome": "saved" if passed else "saved_as_is"}

    def route_after_plan(state: LectureState) -> Any:
        return "plan_review" if plan_review else fan_out(state)

    def route_after_plan_review(state: LectureState) -> Any:
        return "plan_review" if state["decision"] == "edit_plan" else fan_out(state)

    def route_after_gate(state: LectureState) -> Literal["save", "decide"]:
        return "save" if state["scores"][-1]["passed"] else "decide"

    def route_after_decide(state: LectureState) -> Any:
        decision = state["decision"]
        if decision == "save":
            return "save"
        if decision == "reject":
            return END
        if decision == "rework":
            return "write"
        if decision == "edit_plan":
            return fan_out(state)
        raise ValueError(f"unexpected decision {decision!r}")

    builder = StateGraph(LectureState, input_schema=LectureRequest)
    builder.add_node("validate", log(validate))
    builder.add_node("plan", log(plan))
    builder.add_node("plan_review", log(review_plan))
    builder.add_node("research", log(research_one, label_of=lambda task: task["subtopic"]["title"]))
    builder.add_node("write", log(write))
    reviewer_nodes = []
    for reviewer in REVIEWERS:
        node = make_reviewer(reviewer)
        builder.add_node(node.__name__, log(node, label_of=lambda _state, name=reviewer: name))
        reviewer_nodes.append(node.__name__)
    builder.add_node("gate", log(gate))
    builder.add_node("decide", log(decide))
    builder.add_node("save", log(save))

    builder.add_edge(START, "validate")
    builder.add_edge("validate", "plan")
    builder.add_conditional_edges("plan", route_after_plan, ["plan_review", "research", "write"])
    builder.add_conditional_edges("plan_review", route_after_plan_review, ["plan_review", "research", "write"])
    builder.add_edge("research", "write")
    for node_name in reviewer_nodes:
        builder.add_edge("write", node_name)
    builder.add_edge(reviewer_nodes, "gate")
    builder.add_conditional_edges("gate", route_after_gate, ["save", "decide"])
    builder.add_conditional_edges("decide", route_after_decide, ["write", "research", "save", END])
    builder.add_edge("save", END)
    return builder.compile(checkpointer=saver)


def parse_int_setting(settings: Settings, name: str, default: int, minimum: int, maximum: int) -> int:
    """A whole-number setting within bounds; a bad value is refused, naming the setting."""
    raw = settings.get(name)
    if raw is None:
        return default
    try:
        value = int(str(raw).strip())
    except ValueError:
        raise InputError(name, f"must be a whole number, got {raw!r}") from None
    if not minimum <= value <= maximum:
        raise InputError(name, f"must be between {minimum} and {maximum}, got {value}")
    return value


def parse_bool_setting(settings: Settings, name: str, default: bool = False) -> bool:
    """An on/off setting: 1/true/yes/on or 0/false/no/off (any case)."""
    raw = settings.get(name)
    if raw is None:
        return default
    text = str(raw).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise InputError(name, f"must be on or off (1/0, true/false, yes/no), got {raw!r}")
