"""The lecture planner's own endpoints, drop-in compatible with the service it grew from.

``POST /generate`` takes the six fields (``topic, audience_level, duration, delivery_method,
platform_tools, constraints``; ``thread_id`` is optional) and runs the planner. At the gate it
answers ``{"status": "waiting_for_human", "thread_id", "score", "feedback", "message"}``; when the
plan passed, ``{"status": "completed", "save_path", "log_path"}`` (the saved Markdown plan and a CSV
of the thread's node log in the timeline's layout). Our keys sit beside them (``threshold``,
``reviews``, ``plan_markdown``, ``round``, ``curl``...), never instead of them.

``POST /resume`` takes ``{thread_id, decision}``: ``rework`` or ``save`` as in the original, and our
``reject`` (and ``approve`` at the plan review), with optional ``notes`` (a rework's, or why it is
rejected). As in the original, an
unknown decision is 400 and a thread with nothing waiting 404; the answer is shaped as /generate's.

The answer and the server log carry ready-to-copy ``curl`` commands with the real thread id and
the server's address (a token, when required, is sent from ``$HITL_API_TOKEN``, never written out).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict

from agents import lifecycle, readmodel, runs
from agents.api.context import Actor, ApiContext, Ctx, refuse_if_busy
from agents.api.errors import ApiError
from agents.errors import InputError, NotWaitingError, ThreadNotFoundError
from agents.nodelog import node_runs
from agents.timing import timeline_csv

logger = logging.getLogger("agents.api")
router = APIRouter(tags=["lecture planner"])
AGENT = "lecture"
#: The answers /resume knows: the original's rework and save, and ours.
DECISIONS = ("rework", "save", "reject", "approve")


class GenerateRequest(BaseModel):
    """The six fields of the original service (all required), and our optional thread id and run language."""

    model_config = ConfigDict(extra="forbid")
    topic: Any = None
    audience_level: Any = None
    duration: Any = None
    delivery_method: Any = None
    platform_tools: Any = None
    constraints: Any = None
    thread_id: Any = None
    lang: Any = None


class ResumeRequest(BaseModel):
    """The original's ``thread_id`` and ``decision``, and our optional ``notes`` (with rework, or a reject's reason)."""

    model_config = ConfigDict(extra="forbid")
    thread_id: Any = None
    decision: Any = None
    notes: Any = None


def curl_command(context: ApiContext, thread_id: str, decision: str) -> str:
    """The ready-to-copy command that answers the thread's gate with ``decision``."""
    body = json.dumps({"thread_id": thread_id, "decision": decision}, ensure_ascii=False)
    token = ' -H "Authorization: Bearer $HITL_API_TOKEN"' if context.token_required else ""
    return f"curl -s -X POST {context.base_url}/resume -H 'Content-Type: application/json'{token} -d '{body}'"


def _feedback(reviews: list[dict[str, Any]]) -> str:
    """The reviewers' feedback as one text, one line per reviewer."""
    lines = []
    for review in reviews:
        items = "; ".join(str(item) for item in review.get("feedback") or []) or "no remarks"
        lines.append(f"[{review.get('reviewer')}] {review.get('score')}/100: {items}")
    return "\n".join(lines)


def _round_reviews(values: dict[str, Any]) -> list[dict[str, Any]]:
    round_number = values.get("round")
    return [
        {"reviewer": r["reviewer"], "score": r["score"], "feedback": list(r["feedback"])}
        for r in values.get("reviews") or []
        if r.get("round") == round_number
    ]


def _write_log(context: ApiContext, thread_id: str, plan_path: str) -> str | None:
    """Writes the thread's node log as CSV beside its saved plan; returns the path."""
    if not plan_path:
        return None
    path = Path(plan_path).with_suffix(".csv")
    path.write_text(timeline_csv(node_runs(context.store, thread_id=thread_id)), encoding="utf-8")
    return str(path)


def _waiting(context: ApiContext, result: runs.RunResult) -> dict[str, Any]:
    payload = result.interrupts[0] if result.interrupts else {}
    payload = payload if isinstance(payload, dict) else {}
    options = [o for o in payload.get("options", ["rework", "save", "reject"]) if o in DECISIONS]
    if payload.get("stage") == "plan_review":
        options = ["approve"]
    reviews = [dict(r) for r in payload.get("reviews") or []]
    score, threshold = payload.get("score"), payload.get("threshold")
    said = (
        f"The draft scored {score}, below the threshold of {threshold}."
        if score is not None
        else str(payload.get("question", "A human decision is needed."))
    )
    with_notes = " or ".join(option for option in ("rework", "reject") if option in options)
    message = f"{said} Answer POST /resume with thread_id and decision: {', '.join(options)}" + (
        f" (optional notes with {with_notes})." if with_notes else "."
    )
    if payload.get("error"):
        message += f" The last answer was refused: {payload['error']}"
    commands = {option: curl_command(context, result.thread_id, option) for option in options}
    logger.info(
        "thread %s waits for a human (score %s, threshold %s); answer it with:\n%s",
        result.thread_id,
        score,
        threshold,
        "\n".join(f"  {command}" for command in commands.values()),
    )
    return {
        "status": "waiting_for_human",
        "thread_id": result.thread_id,
        "score": score,
        "feedback": _feedback(reviews),
        "message": message,
        "threshold": threshold,
        "reviews": reviews,
        "plan_markdown": result.values.get("draft", ""),
        "round": payload.get("round", result.values.get("round")),
        "max_rounds": payload.get("max_rounds"),
        "options": options,
        "curl": commands,
    }


def answer_of(context: ApiContext, result: runs.RunResult) -> dict[str, Any]:
    """The /generate and /resume answer for where the thread stands."""
    if result.status == "waiting":
        return _waiting(context, result)
    values = result.values
    scores = values.get("scores") or []
    ours: dict[str, Any] = {
        "thread_id": result.thread_id,
        "outcome": result.outcome,
        "score": scores[-1]["score"] if scores else None,
        "threshold": scores[-1]["threshold"] if scores else None,
        "reviews": _round_reviews(values),
        "plan_markdown": values.get("final_plan") or values.get("draft", ""),
    }
    if result.status == "done" and result.outcome in ("saved", "saved_as_is"):
        plan_path = str(values.get("plan_path") or "")
        log_path = _write_log(context, result.thread_id, plan_path)
        logger.info("thread %s completed: plan %s, node log %s", result.thread_id, plan_path, log_path)
        return {"status": "completed", "save_path": plan_path or None, "log_path": log_path, **ours}
    if result.status == "done":
        return {"status": "rejected", **ours}
    return {"status": result.status, "reason": result.reason, "action": result.action, **ours}


def _thread_text(value: Any) -> str | None:
    """A request's ``thread_id`` as sent: text or absent; a number, list or boolean is refused, not read."""
    if value is not None and not isinstance(value, str):
        raise InputError("thread_id", f"must be text, got {type(value).__name__}")
    return value


@router.post("/generate")
def generate(body: GenerateRequest, context: Ctx, actor: Actor) -> dict[str, Any]:
    """Runs the planner on the six fields until it passes the gate or waits for a human there."""
    values = body.model_dump(exclude={"thread_id", "lang"})
    thread_id = _thread_text(body.thread_id)  # none: a new thread; an empty id is refused, as everywhere
    result = runs.start_run(
        context.store, context.settings, AGENT, values, thread_id=thread_id, lang=body.lang, actor=actor
    )
    return answer_of(context, result)


@router.post("/resume")
def resume(body: ResumeRequest, context: Ctx, actor: Actor) -> dict[str, Any]:
    """Answers a thread waiting at the gate: rework (a new round), save (as is) or reject."""
    thread_id = lifecycle.thread_named(context.store, _thread_text(body.thread_id))
    decision = body.decision.strip() if isinstance(body.decision, str) else body.decision
    if decision not in DECISIONS:
        raise ApiError(400, f"decision: must be one of {', '.join(DECISIONS)}; got {body.decision!r}", "decision")
    if readmodel.thread_agent(context.store, thread_id) != AGENT:
        raise ApiError(404, f"thread_id: no lecture thread {thread_id!r} is waiting for a decision", "thread_id")
    refuse_if_busy(context.store, thread_id)
    try:
        answer = {"action": decision, "notes": body.notes}
        result = runs.resume_from_fields(context.store, context.settings, thread_id, answer, agent=AGENT, actor=actor)
    except (ThreadNotFoundError, NotWaitingError) as error:
        raise ApiError(404, str(error), "thread_id") from None
    except InputError as error:
        if error.field == "action":
            raise InputError("decision", error.message) from None
        raise
    return answer_of(context, result)
