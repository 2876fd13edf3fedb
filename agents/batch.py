"""Decide many waiting questions in one action, across threads: ``decide``, ``POST /decisions``, the refund queue.

An ITEM is a thread id (its only waiting question) or ``THREAD:INTERRUPT_ID`` (one question of a thread
that asks several). Every item goes through ``runs.resume_thread``, the path every answer takes, with
exactly the checks of a single decision (role, limit, four eyes, the approver's name); the result is
reported per item (``paid``, ``rejected``, ``waiting`` when its case still asks about other items,
``refused`` with the reason, ``already decided``, or ``busy`` while another process changes its thread:
nothing was done, try again), and a refused item never stops the others. A repeated command pays
nothing twice: every item it names was decided already.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agents import runs
from agents.db import Store
from agents.errors import NotWaitingError, RunFailedError, StaleFormError, UserError
from agents.identity import LOCAL_OPERATOR, Identity
from agents.leases import ThreadBusyError
from agents.settings import Settings
from agents.texts import DEFAULT_LANGUAGE, render

#: The channel of LangGraph's writes that hold a task's questions.
INTERRUPT = "__interrupt__"
#: ``THREAD:INTERRUPT_ID``: LangGraph's interrupt ids are 32 hex digits (a thread id may hold ``:`` too).
_ITEM = re.compile(r"(?P<thread>.+):(?P<interrupt>[0-9a-f]{32})")


@dataclass(frozen=True)
class Decided:
    """What became of one item of a ``decide`` command."""

    item: str
    thread_id: str
    interrupt_id: str
    result: str  # paid, rejected, waiting, refused, already decided, busy, failed
    reason: str = ""
    batch_id: str = ""  # the batch the item was decided in (recorded with the decision, its trace and audit)


def split_item(item: str) -> tuple[str, str | None]:
    """(thread id, interrupt id or None) of an ITEM argument."""
    found = _ITEM.fullmatch(item)
    return (found["thread"], found["interrupt"]) if found else (item, None)


def decide_items(
    store: Store,
    settings: Settings,
    items: list[str],
    answer: dict[str, Any],
    *,
    actor: Identity = LOCAL_OPERATOR,
    lang: str = DEFAULT_LANGUAGE,
    batch_id: str | None = None,
    explain: Callable[[UserError], str] | None = None,
) -> list[Decided]:
    """Answers each item with ``answer`` through ``runs.resume_thread``, one at a time, in order.

    Every decision is recorded as made in one batch: ``batch_id``, or a fresh one (a random UUID).
    A refusal's reason is ``explain(error)`` (a page names a field by its label), else the error in ``lang``.
    """
    batch = batch_id or str(uuid.uuid4())

    def render_error(error: UserError) -> str:
        return explain(error) if explain is not None else render(error, lang)

    done: list[Decided] = []
    for item in items:
        thread, interrupt = split_item(item)
        try:
            result = runs.resume_thread(
                store, settings, thread, dict(answer), interrupt_id=interrupt, actor=actor, batch_id=batch
            )
        except (NotWaitingError, StaleFormError) as error:
            done.append(Decided(item, thread, interrupt or "", "already decided", render_error(error), batch))
        except ThreadBusyError as error:  # another process decides this thread right now: nothing was done
            done.append(Decided(item, thread, interrupt or "", "busy", render_error(error), batch))
        except UserError as error:
            gone = (
                interrupt is not None
                and getattr(error, "field", "") == "interrupt_id"
                and _was_asked(store, thread, interrupt)
            )
            word = "already decided" if gone else "refused"
            done.append(Decided(item, thread, interrupt or "", word, render_error(error), batch))
        except RunFailedError as error:
            done.append(Decided(item, thread, interrupt or "", "failed", str(error), batch))
        else:
            done.append(Decided(item, thread, interrupt or "", _result_word(result, answer["action"]), "", batch))
    return done


def _was_asked(store: Store, thread: str, interrupt: str) -> bool:
    """Whether the thread ever asked the question ``interrupt`` (one no longer waiting was answered)."""
    for saved in store.saver.list({"configurable": {"thread_id": thread, "checkpoint_ns": ""}}):
        for _, channel, value in saved.pending_writes or []:
            if channel == INTERRUPT and any(getattr(i, "id", None) == interrupt for i in value or []):
                return True
    return False


def _result_word(result: runs.RunResult, action: str) -> str:
    """What an accepted answer did to its item: paid, rejected, or its case still waits on other items."""
    if result.status == "done":
        return "rejected" if action == "reject" else "paid"
    return "waiting" if result.status == "waiting" else result.status
