"""``POST /decisions``: approve or reject many waiting questions in one request, each on its own.

The same as ``python -m agents decide``: :func:`agents.batch.decide_items` answers each item (a thread
id, or ``THREAD:INTERRUPT_ID``) through the one answer path, with every check of a single decision, as
the request's identity. The answer is per item (``paid``, ``rejected``, ``waiting``, ``refused`` with
the reason, ``already decided``, ``busy``, ``failed``), with the id of the batch every decision was recorded in:
a refused item never blocks the others, and a repeated request pays nothing twice.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from agents.api.context import Actor, Ctx
from agents.batch import decide_items

router = APIRouter(tags=["decisions"])
#: The most items one request may decide.
MAX_ITEMS = 1000


class DecisionsRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    items: list[str] = Field(min_length=1, max_length=MAX_ITEMS)
    action: Literal["approve", "reject"]
    approver: str
    note: str | None = None


@router.post("/decisions")
def decide(body: DecisionsRequest, context: Ctx, actor: Actor) -> dict[str, Any]:
    """Decides each item in order; answers the batch id and the result of each item, in order."""
    answer: dict[str, Any] = {"action": body.action, "approver": body.approver}
    if body.note:
        answer["note"] = body.note
    settings = context.settings
    done = decide_items(context.store, settings, list(body.items), answer, actor=actor, lang=settings.lang)
    return {"batch_id": done[0].batch_id, "results": [asdict(d) for d in done]}
