"""One thread's status as every screen shows it (:class:`ThreadStatus`), the words it is listed with, and how
many of its questions wait, with a reason about them all (:func:`with_counts`).

Made by :mod:`agents.lifecycle`, kept per thread by :mod:`agents.statusindex`.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, fields, replace
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
        waiting_count: How many of a ``waiting`` thread's questions wait, where its status says so
            (:func:`says_count`: several, or an item of several); else 0.
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
        when several questions wait at once, or one item of several (:func:`says_count`)."""
        if self.status == "done":
            return f"done ({self.outcome})"
        if self.status == "waiting" and says_count(self.waiting_count, self.payload):
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


def item_total(payload: Any) -> int | None:
    """How many items the thread decides in all, as its question says (an interrupt payload's ``item_count``),
    or None: the question is not one item of several."""
    total = payload.get("item_count") if isinstance(payload, dict) else None
    return total if isinstance(total, int) and not isinstance(total, bool) else None


def says_count(count: int, payload: Any) -> bool:
    """Whether a waiting thread's status says how many of its questions wait (``waiting_count``): when several
    wait at once, and when its one question left is an item of a case with several (``1 of 3 items``, so the
    count does not vanish as the last item waits). A thread with one question of its own says none, and so
    does a case of one item (no ``1 of 1 items``).

    The one rule of every reader: the lifecycle's ``waiting_count`` (``threads --json``, ``inbox --json``), the
    CLI's ``waiting (1 of 3 items)`` after ``threads``, ``inbox``, ``run`` and ``resume``, and the pages' status.
    """
    total = item_total(payload)
    return count > 1 or (count == 1 and total is not None and total > 1)


def waiting_words(count: int, payload: Any) -> str:
    """How many questions wait, in words: ``2 of 5 items`` when the question says how many items the
    thread decides in all (:func:`item_total`), else ``2 questions``."""
    total = item_total(payload)
    if total is not None:
        return f"{count} of {total} items"
    return f"{count} questions"


def with_counts(statuses: list[ThreadStatus], pending: list[readmodel.PendingInterrupt]) -> list[ThreadStatus]:
    """The statuses with how many questions each waiting thread asks, where its status says so (several at
    once, or one item of several: ``says_count``), and, for several, a reason about all of them.

    Every reader of a status takes it from here (the inbox and ``threads``, their ``--json``, the pages, the
    API's ``lifecycle``, a run's result), so the count and the reason beside it always agree."""
    asked: dict[str, list[Any]] = {}
    for question in pending:
        asked.setdefault(question.thread_id, []).append(question.payload)
    found = []
    for s in statuses:
        questions = asked.get(s.thread_id, [])
        if s.status == "waiting" and says_count(len(questions), s.payload):
            s = replace(s, waiting_count=len(questions), **_several_reason(s.agent, questions))
        found.append(s)
    return found


def _several_reason(agent: str, questions: list[Any]) -> dict[str, Any]:
    """The reason of a thread that waits on several questions at once, in its agent's words for them together
    (``ShowPart.questions_text``: a refund case, how many of its items wait and their sum), not its first
    question alone; nothing to replace for one question, or where the agent has no such words."""
    spec = AGENTS.get(agent)
    words = spec.show.questions_text(questions) if len(questions) > 1 and spec is not None else None
    return {} if words is None else {"reason": str(words), "reason_text": words}


def reason_in(agent: str, status: str, reason: str, reason_text: Text | None, question: Any, lang: str) -> str:
    """Why a thread is where it is, in ``lang``: ``reason_text`` rendered, or a waiting thread's ``question`` in the
    agent's words (``reason`` as written when neither translates)."""
    words = reason_text
    if words is None and status == "waiting" and (spec := AGENTS.get(agent)) is not None:
        words = spec.show.question_text(question)
    return words.render(lang) if words is not None else reason
