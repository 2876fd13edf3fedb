"""Decide many waiting questions in one action, across threads: ``decide``, ``POST /decisions``, the refund queue.

An ITEM is a thread id (its only waiting question) or ``THREAD:INTERRUPT_ID`` (one question of a thread
that asks several). Every item goes through ``runs.answer_each``, the path every answer takes
(``runs.resume_interrupts`` for one decision), with exactly the checks of a single decision (role, limit,
four eyes, the approver's name), once each; the items of one thread are answered in one run under one
lease, so a case with several items costs one run, not one per item. The result is
reported per item (``paid``, ``rejected``, ``waiting`` when its case still asks about other items,
``refused`` with the reason, ``already decided``, or ``busy`` while another process changes its thread:
nothing was done, try again), and a refused item never stops the others. A repeated command pays
nothing twice: every item it names was decided already. What became of an item is read under its run's
lease (another process may take the thread the moment it is let go); after a run that failed, an item
is reported as the agent's ledger holds it (``paid`` with the amount, even when the step that paid
failed before its result was saved), else from what its task did, else ``failed``.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agents import readmodel, runs
from agents.db import Store
from agents.errors import InputError, NotWaitingError, RunFailedError, StaleFormError, UserError
from agents.identity import LOCAL_OPERATOR, Identity
from agents.leases import ThreadBusyError
from agents.settings import Settings
from agents.strings import STRINGS
from agents.texts import DEFAULT_LANGUAGE, Text, render, text

#: The channel of LangGraph's writes that hold a task's questions.
INTERRUPT = "__interrupt__"
#: The length of a whole interrupt id (LangGraph's are 32 hex digits).
WHOLE_ID = 32
#: The fewest digits of an interrupt id an item may name: the pages show an id cut to its first eight
#: (``f3519877…``), and that is what a person copies from them.
SHORT_ID = 8
#: ``THREAD:INTERRUPT_ID``, the id whole or as the pages show it cut (a thread id may hold ``:`` too).
_ITEM = re.compile(rf"(?P<thread>.+):(?P<interrupt>[0-9a-f]{{{SHORT_ID},{WHOLE_ID}}})\u2026?")


@dataclass(frozen=True)
class Decided:
    """What became of one item of a ``decide`` command."""

    item: str
    thread_id: str
    interrupt_id: str
    result: str  # paid, rejected, waiting, refused, already decided, busy, failed
    reason: str = ""
    batch_id: str = ""  # the batch the item was decided in (recorded with the decision, its trace and audit)


def split_item(item: str, is_thread: Callable[[str], bool] = lambda _: False) -> tuple[str, str | None]:
    """(thread id, interrupt id or None) of an ITEM argument.

    ``THREAD:ID`` names one question of the thread, by its whole id or by the short id the pages show
    (``refund-C7:f3519877``, with or without the ``…`` after it): a question is answered by its whole id
    only, as ``resume --interrupt`` answers it, so a short one is refused there, naming the thread's
    waiting ids. An item whose tail is shorter than a whole id and that is itself a thread's name
    (``is_thread``; a case id may end in ``:20240101``) names that thread.
    """
    found = _ITEM.fullmatch(item)
    if found is None or (len(found["interrupt"]) < WHOLE_ID and is_thread(item)):
        return item, None
    return found["thread"], found["interrupt"]


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
    """Answers each item with ``answer`` through ``runs.answer_each``; the results in the items' order.

    The items of one thread are answered together, in one run under one lease, each checked and
    reported on its own (an item named twice is answered once; its repeat finds it already decided).
    Every decision is recorded as made in one batch: ``batch_id``, or a fresh one (a random UUID).
    A refusal's reason is ``explain(error)`` (a page names a field by its label), else the error in ``lang``.
    """
    batch = batch_id or str(uuid.uuid4())

    def render_error(error: UserError) -> str:
        return explain(error) if explain is not None else render(error, lang)

    done: dict[int, Decided] = {}
    for thread, group in _groups(store, items):
        outcomes = runs.answer_each(
            store, settings, thread, {key: dict(answer) for _, key in group}, actor=actor, batch_id=batch
        )
        # The questions this run answered wait no more: a refusal's reason never names them as waiting.
        answered = {key for key, outcome in outcomes.items() if key and isinstance(outcome, str | runs.FailedRunAnswer)}
        for position, key in group:
            outcome = _after_own_answers(outcomes[key], answered)
            found = _decided(store, items[position], thread, key, outcome, answer, render_error, batch, lang)
            done[position] = found
    return [done[position] for position in range(len(items))]


def _groups(store: Store, items: list[str]) -> list[tuple[str, list[tuple[int, str | None]]]]:
    """The items by thread, in the order each thread is first named: (thread, [(position, interrupt id)]).

    A thread's items go in one group, except a repeat of an item (in a later group, decided after it) and
    an item naming the thread's only question without its id (a group of its own).
    """
    groups: list[tuple[str, list[tuple[int, str | None]]]] = []
    open_groups: dict[str, list[list[tuple[int, str | None]]]] = {}
    for position, item in enumerate(items):
        thread, interrupt = split_item(item, lambda name: readmodel.head_checkpoint_id(store, name) is not None)
        same_thread = open_groups.setdefault(thread, [])
        fits = [g for g in same_thread if interrupt is not None and all(k not in (None, interrupt) for _, k in g)]
        if fits:
            fits[0].append((position, interrupt))
            continue
        group = [(position, interrupt)]
        same_thread.append(group)
        groups.append((thread, group))
    return groups


def _decided(
    store: Store,
    item: str,
    thread: str,
    interrupt: str | None,
    outcome: str | runs.FailedRunAnswer | Exception,
    answer: dict[str, Any],
    render_error: Callable[[UserError], str],
    batch: str,
    lang: str,
) -> Decided:
    """What became of one item, from its answer's outcome (the thread's status as its run left it, or an error)."""
    if isinstance(outcome, str):
        return Decided(item, thread, interrupt or "", _result_word(outcome, answer["action"]), "", batch)
    if isinstance(outcome, runs.FailedRunAnswer):
        return _after_failure(item, thread, interrupt, outcome, answer["action"], batch, lang)
    if isinstance(outcome, NotWaitingError | StaleFormError):
        return Decided(item, thread, interrupt or "", "already decided", render_error(outcome), batch)
    if isinstance(outcome, ThreadBusyError):  # another process decides this thread right now: nothing was done
        return Decided(item, thread, interrupt or "", "busy", render_error(outcome), batch)
    if isinstance(outcome, UserError):
        outcome = _in_batch_words(outcome, thread) if interrupt is None else outcome
        gone = (
            interrupt is not None
            and getattr(outcome, "field", "") == "interrupt_id"
            and _was_asked(store, thread, interrupt)
        )
        word = "already decided" if gone else "refused"
        return Decided(item, thread, interrupt or "", word, render_error(outcome), batch)
    if isinstance(outcome, RunFailedError):
        return Decided(item, thread, interrupt or "", "failed", str(outcome), batch)
    raise outcome  # not a result an item can have: our own error


def _in_batch_words(error: UserError, thread: str) -> UserError:
    """A refusal as a batch says it: a thread item whose thread asks several questions names one of them as
    ``THREAD:INTERRUPT_ID`` (the item form), where ``resume`` would point at its own ``--interrupt ID``.

    The rule is the resume's (:func:`agents.runs.resume_interrupts` refuses an answer that names no question
    of several); only the advice differs, so the waiting ids it reported are written as items to copy.
    """
    said = error.text.params.get("message") if error.text is not None else None
    if not isinstance(said, Text) or said.key != "error.several_waiting":
        return error
    ids = str(said.params["ids"]).split(", ")
    items = ", ".join(f"{thread}:{interrupt}" for interrupt in ids)
    words = text(STRINGS, "batch.several_waiting", count=said.params["count"], thread=repr(thread), items=items)
    return InputError(getattr(error, "field", "interrupt_id"), words)


def _after_own_answers(outcome: Any, answered: set[str]) -> Any:
    """An answer's outcome as its thread stands after the batch's own answers in the same run.

    An item naming a question that no longer waits is refused by the resume's rule with the questions that
    waited when the run was checked (:func:`agents.runs.resume_interrupts`); those this run answered are left
    out of that list, so "already decided" never names as waiting a question the same batch just decided. None
    left, the reason says nothing else waits there.
    """
    said = outcome.text.params.get("message") if isinstance(outcome, InputError) and outcome.text else None
    if not isinstance(said, Text) or said.key != "error.unknown_interrupt":
        return outcome
    listed = str(said.params["ids"]).split(", ")
    left = [interrupt for interrupt in listed if interrupt and interrupt not in answered]
    if left == listed:
        return outcome
    if left:
        words = text(STRINGS, "error.unknown_interrupt", **{**said.params, "ids": ", ".join(left)})
    else:
        where = {"interrupt": said.params["interrupt"], "thread": said.params["thread"]}
        words = text(STRINGS, "batch.nothing_else_waiting", **where)
    return InputError(outcome.field, words)


def _was_asked(store: Store, thread: str, interrupt: str) -> bool:
    """Whether the thread ever asked the question ``interrupt`` (one no longer waiting was answered)."""
    for saved in store.saver.list({"configurable": {"thread_id": thread, "checkpoint_ns": ""}}):
        for _, channel, value in saved.pending_writes or []:
            if channel == INTERRUPT and any(getattr(i, "id", None) == interrupt for i in value or []):
                return True
    return False


def _after_failure(
    item: str, thread: str, interrupt: str | None, outcome: runs.FailedRunAnswer, action: str, batch: str, lang: str
) -> Decided:
    """What an answer taken by a run that then failed did: what the ledger holds paid, else what its task did.

    A payout the ledger holds is paid, with its amount, even when the step that paid it failed before its
    result was saved (a retry records it as already paid). Without one, an approval paid nothing where
    the agent keeps a ledger (its task may finish before the step that pays fails): it failed, as did
    any answer whose task did not finish. A finished rejection stands.
    """
    if outcome.paid is not None:
        paid = text(STRINGS, "batch.paid_on_record", amount=f"{outcome.paid:,}", error=str(outcome.error))
        return Decided(item, thread, interrupt or "", "paid", render(paid, lang), batch)
    if outcome.finished and (action == "reject" or not outcome.ledger):
        return Decided(item, thread, interrupt or "", _result_word("done", action), "", batch)
    return Decided(item, thread, interrupt or "", "failed", str(outcome.error), batch)


def _result_word(status: str, action: str) -> str:
    """What an accepted answer did to its item: paid, rejected, or its case still waits on other items."""
    if status == "done":
        return "rejected" if action == "reject" else "paid"
    return status
