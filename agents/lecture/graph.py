"""The lecture planner's graph: a parallel pipeline with a score gate and a human decision.

``validate`` → ``plan`` → [``plan_review``, optional] → one ``research`` task per
subtopic (``Send``) → ``write`` → ``review_content`` ‖ ``review_time_allocation``
‖ ``review_difficulty`` → ``gate`` → ``save`` on a pass, else ``decide``.

The gate rule: the combined score of a round is the mean of that round's three
review scores, rounded half up, recomputed from the round's own reviews every
round; the round passes when it is at least the threshold (default 80,
setting ``HITL_GATE_THRESHOLD``). See :mod:`agents.lecture.rounds`.

``decide`` pauses (``interrupt()``) with the score, each reviewer's feedback and
the options: ``rework`` (optional notes; ``write`` revises the flagged items,
the reviewers score the new draft afresh, the gate runs again), ``edit_plan``
(change the subtopics, research only the new ones, then rework), ``save`` (as
is) or ``reject`` (the run ends, recorded as rejected). After ``max_rounds``
drafts (default 3, setting ``HITL_MAX_ROUNDS``) only ``save`` and ``reject``
remain. An answer that does not fit the question (``rework`` at the limit, a
refused plan edit) pauses again with the reason in the payload's ``error``:
the node asks again instead of failing the run. The answer rules live in
:mod:`agents.lecture.answers`.

Parallelism: the nodes are sync (``SqliteSaver`` has no async support) and run
in LangGraph's thread pool, whose size is the run config's ``max_concurrency``
(the spec sets it, so every research task of a fan-out and the three
reviewers start together instead of a few at a time).

Research runs once per subtopic: the fan-out sends only subtopics without a
result, so a rework, or a resume after a crash, never researches a finished
subtopic again.

The nodes are module-level functions named as their nodes (``review`` serves
the three ``review_<reviewer>`` nodes, ``review_plan`` the ``plan_review``
node); those that need the chat model, the research source or the graph's
options take a :class:`NodeContext` first, bound with
:func:`functools.partial` in :func:`build_graph`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Literal

from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Send, interrupt

from agents.common import require_checkpointer, run_language
from agents.db import Store
from agents.errors import InputError
from agents.lecture import AGENT_NAME, hitl
from agents.lecture.answers import (
    PLAN_ACTIONS,
    accept_gate_answer,
    accept_plan_answer,
    check_answer,
    gate_options,
    gate_question,
)
from agents.lecture.brains import ChatModel, make_plan, research_subtopic, review_draft, write_draft
from agents.lecture.inputs import HUMAN_NOTES_MAX_LENGTH, validate_lecture_input
from agents.lecture.plans import plans_dir_for, save_plan_file
from agents.lecture.prompts import REVIEWERS
from agents.lecture.research import ResearchSource
from agents.lecture.rounds import gate_verdict, plan_research, researched_ids, round_reviews
from agents.lecture.services import LectureServices
from agents.lecture.settings import DEFAULT_MAX_ROUNDS, DEFAULT_THRESHOLD
from agents.lecture.state import LectureRequest, LectureState, ResearchTask, Review, RoundReview
from agents.lecture.strings import STRINGS
from agents.nodelog import LabelFunction, logged_node
from agents.texts import say


@dataclass(frozen=True)
class NodeContext:
    """What the nodes need besides the state; :func:`build_graph` binds it to them.

    Attributes:
        chat: The chat model every step calls.
        source: Where research looks.
        threshold: The gate's pass mark (0-100).
        max_rounds: Most drafts per run, the first included.
        plans_dir: Where ``save`` writes ``<thread id>.md``; ``None`` keeps the
            plan in the state only.
    """

    chat: ChatModel
    source: ResearchSource
    threshold: int
    max_rounds: int
    plans_dir: Path | None


# ---------------------------------------------------------------------------
# Pauses
# ---------------------------------------------------------------------------


def _ask(payload: dict[str, Any], accept: Callable[[dict[str, Any]], dict[str, Any]], lang: str) -> dict[str, Any]:
    """Pauses until an answer is accepted; a refused answer pauses again, with the reason (in ``lang``).

    ``interrupt()`` may be called several times in one node: on resume, the
    node runs again and each call returns the answer given to it, in order.
    """
    error = ""
    while True:
        asked = hitl.asked({**payload, "error": error} if error else payload, lang)
        raw = interrupt(asked, response_schema=hitl.response_schema(payload, HUMAN_NOTES_MAX_LENGTH))
        try:
            answer = check_answer(raw)
            hitl.check_shown(payload, answer)  # an edit of what the question shows for reading
            return accept(answer)
        except InputError as refused:
            error = refused.render(lang)


# ---------------------------------------------------------------------------
# Nodes
# ---------------------------------------------------------------------------


def validate(state: LectureState) -> dict[str, Any]:
    """Checks and trims the six fields."""
    return {"lecture": validate_lecture_input(state["request"])}


def plan(context: NodeContext, state: LectureState) -> dict[str, Any]:
    """Plans 3 to 5 subtopics (plan version 1) and opens round 1."""
    subtopics = make_plan(context.chat, state["lecture"])
    return {"subtopics": subtopics, "plan_version": 1, "next_subtopic": len(subtopics) + 1, "round": 1, "reworks": 0}


def review_plan(state: LectureState, config: RunnableConfig) -> dict[str, Any]:
    """Pauses so a human approves the plan or edits it (each edit bumps the version).

    The node is named ``plan_review``; the function is not, because
    :func:`build_graph`'s ``plan_review`` switch would hide it there.
    """
    lang = run_language(config)
    payload = {
        "question": say(STRINGS, "lecture.say.plan_question", lang),
        "stage": "plan_review",
        "plan_version": state["plan_version"],
        "subtopics": state["subtopics"],
        "researched": sorted(researched_ids(state)),
        "options": list(PLAN_ACTIONS),
    }
    return _ask(payload, partial(accept_plan_answer, state), lang)


def research(context: NodeContext, task: ResearchTask) -> dict[str, Any]:
    """Researches one subtopic; returns only its own result."""
    return {"research": [research_subtopic(context.chat, context.source, task["lecture"], task["subtopic"])]}


def write(context: NodeContext, state: LectureState) -> dict[str, Any]:
    """Writes the draft of the current round; a rework revises the previous one."""
    round_number = state["round"]
    feedback = [
        Review(reviewer=r["reviewer"], score=r["score"], feedback=r["feedback"])
        for r in round_reviews(state, round_number - 1)
    ]
    draft = write_draft(
        context.chat,
        state["lecture"],
        state["subtopics"],
        plan_research(state),
        round=round_number,
        feedback=feedback,
        human_notes=state.get("human_notes", ""),
        previous_draft=state.get("draft") if round_number > 1 else None,
    )
    return {"draft": draft}


def review(context: NodeContext, reviewer: str, state: LectureState) -> dict[str, Any]:
    """One reviewer scores the current draft (node ``review_<reviewer>``); returns only its review."""
    verdict = review_draft(
        context.chat, reviewer, state["lecture"], state["subtopics"], state["draft"], plan_research(state)
    )
    return {"reviews": [RoundReview(round=state["round"], **verdict)]}


def gate(context: NodeContext, state: LectureState) -> dict[str, Any]:
    """Scores the round from its own three reviews against the threshold."""
    reviews = round_reviews(state, state["round"])
    if sorted(r["reviewer"] for r in reviews) != sorted(REVIEWERS):
        raise RuntimeError(f"round {state['round']} has reviews {[r['reviewer'] for r in reviews]}")
    return {"scores": [gate_verdict(reviews, state["round"], context.threshold)]}


def decide(context: NodeContext, state: LectureState, config: RunnableConfig) -> dict[str, Any]:
    """Pauses for the human's decision on a draft that failed the gate."""
    round_number, lang = state["round"], run_language(config)
    verdict = state["scores"][-1]
    options = gate_options(round_number, context.max_rounds)
    payload = {
        "question": say(STRINGS, gate_question(options), lang),  # asks for what the options offer
        "stage": "gate",
        "round": round_number,
        "max_rounds": context.max_rounds,
        "score": verdict["score"],
        "threshold": verdict["threshold"],
        "plan_version": state["plan_version"],
        "reviews": [
            {"reviewer": r["reviewer"], "score": r["score"], "feedback": r["feedback"]}
            for r in round_reviews(state, round_number)
        ],
        "options": options,
    }
    return _ask(payload, partial(accept_gate_answer, state, context.max_rounds), lang)


def save(context: NodeContext, state: LectureState, config: RunnableConfig) -> dict[str, Any]:
    """Saves the final plan in the state and as ``<thread id>.md``."""
    passed = bool(state["scores"]) and state["scores"][-1]["passed"]
    markdown = state["draft"]
    path = ""
    if context.plans_dir is not None:
        path = str(save_plan_file(context.plans_dir, config["configurable"]["thread_id"], markdown))
    return {"final_plan": markdown, "plan_path": path, "outcome": "saved" if passed else "saved_as_is"}


# ---------------------------------------------------------------------------
# Routers
# ---------------------------------------------------------------------------


def fan_out(state: LectureState) -> list[Send] | Literal["write"]:
    """One ``research`` task per subtopic without a result; straight to ``write`` when none is missing."""
    done = researched_ids(state)
    missing = [s for s in state["subtopics"] if s["id"] not in done]
    if not missing:
        return "write"
    return [Send("research", ResearchTask(lecture=state["lecture"], subtopic=s)) for s in missing]


def route_to_plan_review(state: LectureState) -> Literal["plan_review"]:
    """With plan review on, every new plan goes to the human first."""
    return "plan_review"


def route_after_plan_review(state: LectureState) -> list[Send] | Literal["plan_review", "write"]:
    """An edited plan is shown again; an approved one goes to research."""
    return "plan_review" if state["decision"] == "edit_plan" else fan_out(state)


def route_after_gate(state: LectureState) -> Literal["save", "decide"]:
    """A passed round is saved; a failed one goes to the human."""
    return "save" if state["scores"][-1]["passed"] else "decide"


def route_after_decide(state: LectureState) -> list[Send] | Literal["save", "write", "__end__"]:
    """Follows the human's decision at the gate.

    Raises:
        ValueError: A decision the gate never records.
    """
    decision = state["decision"]
    if decision == "save":
        return "save"
    if decision == "reject":
        return "__end__"  # END's value; langgraph types END as a plain str, not a Literal
    if decision == "rework":
        return "write"
    if decision == "edit_plan":
        return fan_out(state)
    raise ValueError(f"unexpected decision {decision!r}")


# ---------------------------------------------------------------------------
# The graph
# ---------------------------------------------------------------------------


def _node_context(
    store: Store | None,
    model: ChatModel | None,
    research_source: ResearchSource | None,
    services: LectureServices | None,
    threshold: int,
    max_rounds: int,
    plans_dir: str | Path | None,
) -> NodeContext:
    """The given model and research source, else those the services (or the settings) choose."""
    if model is None or research_source is None:
        services = services or LectureServices()  # the embedded model and the bundled corpus
        model = model if model is not None else services.chat_model()
        research_source = research_source if research_source is not None else services.research_source()
    folder = Path(plans_dir) if plans_dir is not None else (plans_dir_for(store.path) if store else None)
    return NodeContext(model, research_source, threshold, max_rounds, folder)


def _add_node(
    builder: StateGraph[Any, Any, Any, Any],
    store: Store | None,
    name: str,
    node: Callable[..., dict[str, Any]],
    label_of: LabelFunction | None = None,
) -> None:
    """Adds ``node`` as ``name``; with a store, every call is written to the store's node log."""
    builder.add_node(
        name, node if store is None else logged_node(store, AGENT_NAME, node, name=name, label_of=label_of)
    )


def _subtopic_title(task: ResearchTask) -> str:
    """The node-log label of a research task: its subtopic."""
    return task["subtopic"]["title"]


def _reviewer_label(reviewer: str, _state: LectureState) -> str:
    """The node-log label of a reviewer node: the reviewer's name."""
    return reviewer


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
        services: Model and research choice; default the embedded model and the bundled corpus.
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
    context = _node_context(store, model, research_source, services, threshold, max_rounds, plans_dir)
    reviewer_nodes = {f"review_{reviewer}": reviewer for reviewer in REVIEWERS}

    builder = StateGraph(LectureState, input_schema=LectureRequest)
    add_node = partial(_add_node, builder, store)
    add_node("validate", validate)
    add_node("plan", partial(plan, context))
    add_node("plan_review", review_plan)
    add_node("research", partial(research, context), label_of=_subtopic_title)
    add_node("write", partial(write, context))
    for name, reviewer in reviewer_nodes.items():
        add_node(name, partial(review, context, reviewer), label_of=partial(_reviewer_label, reviewer))
    add_node("gate", partial(gate, context))
    add_node("decide", partial(decide, context))
    add_node("save", partial(save, context))

    after_plan = route_to_plan_review if plan_review else fan_out
    builder.add_edge(START, "validate")
    builder.add_edge("validate", "plan")
    builder.add_conditional_edges("plan", after_plan, ["plan_review", "research", "write"])
    builder.add_conditional_edges("plan_review", route_after_plan_review, ["plan_review", "research", "write"])
    builder.add_edge("research", "write")
    for name in reviewer_nodes:
        builder.add_edge("write", name)
    builder.add_edge(list(reviewer_nodes), "gate")
    builder.add_conditional_edges("gate", route_after_gate, ["save", "decide"])
    builder.add_conditional_edges("decide", route_after_decide, ["write", "research", "save", END])
    builder.add_edge("save", END)
    return builder.compile(checkpointer=saver)
