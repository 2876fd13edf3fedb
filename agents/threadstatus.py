"""One thread's status as every screen shows it (:class:`ThreadStatus`), and the words it is listed with.

Made by :mod:`agents.lifecycle`, kept per thread by :mod:`agents.statusindex`.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, fields
from typing import Any

from agents import readmodel
from agents.registry import AGENTS
from agents.texts import DEFAULT_LANGUAGE, Text

#: The statuses that wait for a person, and so have a ``waiting_since``, an age and maybe a deadline.
UNFINISHED = ("waiting", "attention")
#: What resolves an unfinished thread.
ACTIONS = ("answer", "continue", "rerun", "wait", "delete")


@dataclass(frozen=True)
class ThreadStatus:
    """Where one thread stands.

    Attributes:
        thread_id: The thread.
        agent: The agent it belongs to (``unknown`` when its metadata names none).
        status: ``waiting``, ``attention``, ``running`` or ``done``.
        outcome: The agent's outcome when ``done`` (e.g. ``paid``), else empty.
        reason_code: Why it is not done, as a code (``question``, ``edited``, ``stopped``,
            ``error``, ``inconsistent``, ``running``, ``unknown_agent``, ``foreign_id``); empty when done.
        reason: The same in words, with the details (the question, the error text).
        action: What resolves it (one of :data:`ACTIONS`); empty when done.
        updated_at: When its head checkpoint was written.
        checkpoint_count: Its root-namespace checkpoints.
        head_checkpoint_id: Its latest checkpoint.
        payload: The interrupt value when ``waiting`` (the question and its details).
        reason_text: ``reason`` as a translatable text, when it has one (see :meth:`reason_in`).
        waiting_since: When a ``waiting`` or ``attention`` thread entered that state: its head
            checkpoint's time (read from the checkpoint id, which LangGraph writes with the time it was
            made; the head does not move while a thread waits or is stuck). None for the others.
    """

    thread_id: str
    agent: str
    status: str
    outcome: str
    reason_code: str
    reason: str
    action: str
    updated_at: dt.datetime
    checkpoint_count: int
    head_checkpoint_id: str
    payload: Any = None
    reason_text: Text | None = None
    waiting_since: dt.datetime | None = None
    waiting_count: int = 0

    def state_words(self) -> str:
        """The status as the CLI lists it: ``done (paid)``, ``waiting``, or ``waiting (2 of 5 items)``
        when several questions wait at once."""
        if self.status == "done":
            return f"done ({self.outcome})"
        if self.status == "waiting" and self.waiting_count > 1:
            return f"waiting ({waiting_words(self.waiting_count, self.payload)})"
        return self.status

    def reason_in(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """``reason`` in ``lang``: the inbox's words in the reader's language (as written when untranslated).

        A waiting thread's question is translated here, when it is shown, not for every listed thread.
        """
        return reason_in(self.agent, self.status, self.reason, self.reason_text, self.payload, lang)

    def to_json(self, *, payload: bool = True, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
        """The ``--json`` shape of the CLI's ``threads`` and ``inbox`` (both without the ``payload``): every field but
        ``reason_text``, made field by field (no deep copy of the question, which ``to_jsonable`` copies).

        ``reason`` is :meth:`reason_in` ``lang``: the reader's words, as the CLI's text prints them, whatever
        language the run asked in.
        """
        data = {
            field.name: getattr(self, field.name)
            for field in fields(self)
            if field.name != "reason_text" and (payload or field.name != "payload")
        }
        data["reason"] = self.reason_in(lang)
        data["updated_at"] = self.updated_at.isoformat()
        data["waiting_since"] = self.waiting_since.isoformat() if self.waiting_since else None
        if payload:
            data["payload"] = readmodel.to_jsonable(self.payload)
        return data


def waiting_words(count: int, payload: Any) -> str:
    """How many questions wait, in words: ``2 of 5 items`` when the question says how many items the
    thread decides in all (an interrupt payload's ``item_count``), else ``2 questions``."""
    total = payload.get("item_count") if isinstance(payload, dict) else None
    if isinstance(total, int) and not isinstance(total, bool):
        return f"{count} of {total} items"
    return f"{count} questions"


def reason_in(agent: str, status: str, reason: str, reason_text: Text | None, question: Any, lang: str) -> str:
    """Why a thread is where it is, in ``lang``: ``reason_text`` rendered, or a waiting thread's ``question`` in the
    agent's words (``reason`` as written when neither translates)."""
    words = reason_text
    if words is None and status == "waiting" and (spec := AGENTS.get(agent)) is not None:
        words = spec.show.question_text(question)
    return words.render(lang) if words is not None else reason
