"""Answering a thread's waiting questions: one, several by interrupt id, or all, each answer checked
once by the agent's hooks before anything is written."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from agents import changefeed, lifecycle, readmodel
from agents.db import Store
from agents.deletion import check_head
from agents.errors import InputError, NotWaitingError, RunFailedError, StaleFormError, ThreadNotFoundError, UserError
from agents.identity import LOCAL_OPERATOR, Identity, held_to_roles
from agents.leases import thread_guard
from agents.loaded import resume_command
from agents.runs.core import (
    NO_OPTIONS,
    ChunkCallback,
    EventCallback,
    Finished,
    RunOptions,
    RunResult,
    _drive,
    _graph,
    _signed,
    _snapshot,
    _thread_spec,
    current_result,
    run_config,
)
from agents.settings import Settings
from agents.spec import AgentSpec, validate_fields
from agents.strings import STRINGS
from agents.texts import Text, text


def resume_thread(
    store: Store,
    settings: Settings,
    thread_id: str,
    value: Any,
    *,
    interrupt_id: str | None = None,
    every: bool = False,
    expected_head: str | None = None,
    on_event: EventCallback | None = None,
    on_chunk: ChunkCallback | None = None,
    stream_modes: tuple[str, ...] = (),
    actor: Identity = LOCAL_OPERATOR,
    run_id: str | None = None,
    batch_id: str | None = None,
) -> RunResult:
    """Answers a waiting thread's question and runs on until the next pause or the end.

    A thread may ask several questions at once (a refund with several items), each with its own
    interrupt id: ``interrupt_id`` answers that one, ``every`` gives the same answer to every one
    waiting. Without either, the thread must be asking exactly one; with more waiting the answer is
    refused (``InputError`` on ``interrupt_id``, listing the ids), since it could be meant for any.

    ``actor`` answers: the agent decides whether they may (``AgentSpec.authorize_answer``), and a
    signed-in actor is recorded by identity, whatever name was typed (``AgentSpec.signed_field``).
    ``batch_id`` names the batch the answer is part of (:mod:`agents.batch`), recorded with the run.
    """
    key = EVERY if every else interrupt_id
    return resume_interrupts(
        store,
        settings,
        thread_id,
        {key: value},
        expected_head=expected_head,
        on_event=on_event,
        on_chunk=on_chunk,
        stream_modes=stream_modes,
        actor=actor,
        run_id=run_id,
        batch_id=batch_id,
    )


#: ``resume_interrupts``' key for "the same answer to every waiting question".
EVERY = "*"


class Taken(NamedTuple):
    """An answer a run takes: the id of the task it resumes and the question it answers, as the run asked it."""

    task_id: str
    question: Any


@dataclass(frozen=True)
class FailedRunAnswer:
    """``answer_each``'s outcome of an answer its run took before the run failed at a step.

    Attributes:
        finished: Its own task finished (its writes saved, at the head beside the failed task's error or
            in a step before it): what that task did stands.
        paid: The amount the agent's ledger holds paid for its question (``AgentSpec.ask.recorded_payout``),
            or None: nothing paid, or the agent keeps no ledger. A step that committed its payout and
            failed before its result was saved has paid: the ledger holds it, and a retry records it so.
        ledger: Whether the agent keeps a ledger: then whether the answer paid is what ``paid`` says
            (the task that took an approval may finish before the step that pays fails).
        error: How the run failed.
    """

    finished: bool
    paid: int | None
    ledger: bool
    error: RunFailedError


def resume_interrupts(
    store: Store,
    settings: Settings,
    thread_id: str,
    answers: dict[str | None, Any],
    *,
    expected_head: str | None = None,
    on_event: EventCallback | None = None,
    on_chunk: ChunkCallback | None = None,
    stream_modes: tuple[str, ...] = (),
    actor: Identity = LOCAL_OPERATOR,
    run_id: str | None = None,
    batch_id: str | None = None,
    options: RunOptions = NO_OPTIONS,
) -> RunResult:
    """Answers some or all of a thread's waiting questions, by interrupt id, in one run.

    ``answers`` maps an interrupt id to its answer (the questions not named stay waiting); the key
    None answers the thread's only question, :data:`EVERY` every waiting one. Each answer is checked
    against the question it answers (``AgentSpec.question_values``) by the agent's rules and
    permissions, all before anything is written: one refused answer refuses the whole call.

    The result is read under the run's lease, once the run has ended: the thread as this run left it
    (``waiting``, ``done``, ...), never ``running`` for another process that takes the thread as soon as
    the lease is let go, nor what that process then does to it.
    """
    if not answers:
        raise InputError("interrupt_id", text(STRINGS, "error.required"))
    thread_id = lifecycle.thread_named(store, thread_id)
    left: list[RunResult] = []

    def report(error: RunFailedError | None, finished: Finished | None) -> None:
        if error is None:
            left[:] = [current_result(store, settings, thread_id, finished, held=True)]

    _resume(
        store,
        settings,
        thread_id,
        answers,
        None,
        expected_head=expected_head,
        on_event=on_event,
        on_chunk=on_chunk,
        stream_modes=stream_modes,
        actor=actor,
        run_id=run_id,
        batch_id=batch_id,
        after=report,
        options=options,
    )
    return left[0]


def answer_each(
    store: Store,
    settings: Settings,
    thread_id: str,
    answers: dict[str | None, Any],
    *,
    actor: Identity = LOCAL_OPERATOR,
    batch_id: str | None = None,
) -> dict[str | None, str | FailedRunAnswer | Exception]:
    """Answers several of a thread's waiting questions in one run, each accepted or refused on its own.

    The checks are those of :func:`resume_interrupts`, once per answer; an answer they refuse is left
    out of the run (its question stays waiting) and the others are answered together, under one lease.
    ``answers`` maps an interrupt id to its answer (None: the thread's only question).

    Returns:
        For each key of ``answers``: the thread's lifecycle status as the run left it (``done``,
        ``waiting``, ...), or why its answer was not taken: its own refusal (a ``UserError``), or what
        stopped the whole thread (not waiting, busy, not found: a ``UserError``; a step that failed:
        ``RunFailedError``). When a run fails at a step, each answer it took is a :class:`FailedRunAnswer`
        (whether its task finished, what the agent's ledger holds paid for it); the others carry the
        failure. All of it is read under the run's lease: another process that takes the thread as soon
        as it is let go (running it, deciding the rest) changes nothing of this report.
    """
    refusals: dict[str | None, UserError] = {}
    taken: dict[str | None, Taken] = {}
    left: list[dict[str | None, str | FailedRunAnswer | Exception]] = []

    def report(error: RunFailedError | None, finished: Finished | None) -> None:
        left[:] = [_left_by_run(store, settings, thread_id, list(answers), refusals, taken, error, finished)]

    try:
        thread_id = lifecycle.thread_named(store, thread_id)
        _resume(
            store, settings, thread_id, answers, refusals, actor=actor, batch_id=batch_id, tasks=taken, after=report
        )
    except RunFailedError as error:
        return left[0] if left else {key: refusals.get(key, error) for key in answers}
    except UserError as error:
        if len(refusals) == len(answers):  # each answer was refused for a reason of its own
            return dict(refusals)
        return {key: refusals.get(key, error) for key in answers}
    return left[0]


def _left_by_run(
    store: Store,
    settings: Settings,
    thread_id: str,
    keys: list[str | None],
    refusals: dict[str | None, UserError],
    taken: dict[str | None, Taken],
    error: RunFailedError | None,
    finished: Finished | None,
) -> dict[str | None, str | FailedRunAnswer | Exception]:
    """What became of each answer, read under the run's lease once it ended (``error``: how it failed;
    ``finished``: the head and state it left when it ended the thread)."""
    if error is None:
        ended = None if finished is None else (finished.head_checkpoint_id, finished.values)
        status = lifecycle.thread_status(store, thread_id, held=True, ended=ended)
        if status is None:  # no such thread any more: not possible while the lease is held, said plainly if so
            return {key: refusals.get(key, ThreadNotFoundError(thread_id)) for key in keys}
        return {key: refusals.get(key, status.status) for key in keys}
    # The answers whose task finished before another task's step failed were saved with their writes
    # (and their task's effects stand); a payout is what the agent's ledger holds, whichever step
    # committed it (a step can fail after its payout committed, before its result was saved).
    spec = _thread_spec(store, thread_id)
    still = _open_tasks(store, settings, thread_id) if taken else set()
    payout = spec.ask.recorded_payout
    found: dict[str | None, str | FailedRunAnswer | Exception] = {}
    for key in keys:
        if key in refusals:
            found[key] = refusals[key]
        elif key not in taken:
            found[key] = error
        else:
            paid = None if payout is None else payout(store, taken[key].question)
            found[key] = FailedRunAnswer(taken[key].task_id not in still, paid, payout is not None, error)
    return found


def _resume(
    store: Store,
    settings: Settings,
    thread_id: str,
    answers: dict[str | None, Any],
    refusals: dict[str | None, UserError] | None,
    *,
    expected_head: str | None = None,
    on_event: EventCallback | None = None,
    on_chunk: ChunkCallback | None = None,
    stream_modes: tuple[str, ...] = (),
    actor: Identity = LOCAL_OPERATOR,
    run_id: str | None = None,
    batch_id: str | None = None,
    tasks: dict[str | None, Taken] | None = None,
    after: Callable[[RunFailedError | None, Finished | None], None] | None = None,
    options: RunOptions = NO_OPTIONS,
) -> None:
    """Checks the answers and resumes the thread with them, under its lease.

    ``refusals`` None: the first answer refused refuses the call. A dict: each refused answer is noted
    there under its key and left out; when none is left, the first refusal is raised. ``tasks``, when
    given, receives the task each answer taken resumes and the question it answers (by the key of
    ``answers``). ``after`` is called once the run has ended, still under the lease, with the run's
    failure or None, and the head and state the run left when it ended the thread (else None): what it
    reads is the thread as this run left it, before any other process can take the thread. ``options``:
    the run's checkpoint metadata and step limit (:class:`~agents.runs.core.RunOptions`).
    """
    if not answers:
        raise InputError("interrupt_id", text(STRINGS, "error.required"))
    actor = held_to_roles(actor, settings.roles)  # a name the local operator types is held to its person's rights
    spec = _thread_spec(store, thread_id)
    checked: dict[str | None, Any] = {}
    for key, value in answers.items():
        try:
            checked[key] = spec.ask.check_resume(_signed(spec, value, actor))
        except UserError as error:
            if refusals is None:
                raise
            refusals[key] = error
    shaped = dict(refusals or {})  # refused for their shape, whatever the state
    targets: dict[str, Any] = {}
    keys: dict[str, str | None] = {}  # interrupt id → the key of ``answers`` that answers it
    checked_at: list[tuple[str | None, tuple[str, ...]]] = []  # the state the answers were last checked on
    read: list[tuple[int, Any]] = []  # (the thread's change mark, the state read after it)
    checked_on: list[Any] = []  # the state the last check saw (under the lease: the thread as it is)

    def refuse(key: str | None, error: UserError) -> None:
        if refusals is None:
            raise error
        refusals[key] = error

    def check() -> None:
        # Read before the lease and checked again under it: the state is read again only when the thread
        # changed in between (its change mark moved), so a decision reads it once before it runs.
        mark = changefeed.thread_mark(store, thread_id)
        head = check_head(store, thread_id, expected_head)
        if mark is not None and read and read[0][0] == mark:
            snapshot = read[0][1]
        else:
            snapshot = _snapshot(store, settings, spec, thread_id)
            read[:] = [] if mark is None else [(mark, snapshot)]
        checked_on[:] = [snapshot]
        if not snapshot.interrupts:
            raise NotWaitingError(thread_id, _where(store, spec, thread_id, snapshot))
        waiting = {str(question.id) for question in snapshot.interrupts}
        if expected_head is not None and not {key for key in checked if key not in (None, EVERY)} <= waiting:
            # An item answered since the form was drawn: the head stays the same checkpoint while
            # other questions of its step still wait (their answers are saved as the step's writes).
            raise StaleFormError(thread_id, expected_head, head)
        # Checked before the lease and again under it: the agent's checks run again only when the thread
        # changed in between (another head, other questions waiting), so each answer is checked once.
        state = (head, tuple(sorted(waiting)))
        again = checked_at != [state]
        if refusals is not None and again:
            refusals.clear()
            refusals.update(shaped)
        targets.clear()
        keys.clear()
        if refusals is None:
            targets.update(_answered(thread_id, snapshot.interrupts, checked))
        else:  # each answer on its own: one naming a question not waiting is refused alone
            for key, answer in checked.items():
                if key in refusals:
                    continue
                try:
                    found = _answered(thread_id, snapshot.interrupts, {key: answer})
                except InputError as error:
                    refusals[key] = error
                    continue
                targets.update(found)
                keys.update(dict.fromkeys(found, key))
        if again:
            values = dict(snapshot.values)
            for question in snapshot.interrupts:
                if question.id in targets:
                    answer, asked = targets[question.id], spec.ask.question_values(values, question.value)
                    try:
                        spec.ask.check_answer(asked, answer)
                        spec.ask.check_offered(question.value, answer)  # the question the answer answers
                        spec.ask.authorize_answer(actor, asked, answer)
                    except UserError as error:
                        refuse(keys.get(str(question.id)), error)
                        del targets[str(question.id)]
            checked_at[:] = [state]
        if not targets and refusals:  # every answer refused: nothing to run, no lease taken
            raise next(iter(refusals.values()))
        if tasks is not None:
            tasks.clear()
            asked_in = {str(i.id): Taken(task.id, i.value) for task in snapshot.tasks for i in task.interrupts}
            tasks.update({keys.get(interrupt): asked_in[interrupt] for interrupt in targets if interrupt in asked_in})

    def run() -> Finished | None:
        graph = _graph(store, settings, spec)
        lang = readmodel.thread_language(store, thread_id)
        config = run_config(spec, thread_id, lang=lang, run_id=run_id, batch_id=batch_id, options=options)
        by_id = list(checked) != [None]
        # Only a task that failed can hold an answer it took (its error is saved beside the answer).
        failed = any(task.error is not None for task in checked_on[0].tasks)
        if failed and readmodel.holds_a_taken_answer(store, thread_id):  # an earlier answer would be used instead
            asked = {str(q.id): q.value for q in _snapshot(store, settings, spec, thread_id).interrupts}
            graph.update_state(config, None, as_node="__copy__")
            if by_id:  # the copy's tasks ask afresh, under new ids: ask them, then answer the same questions
                again = run_config(spec, thread_id, lang=lang, run_id=run_id, options=options)
                _drive(store, graph, None, again, None, actor=actor)
                fresh = _snapshot(store, settings, spec, thread_id).interrupts
                renamed = _renamed(targets, asked, fresh)
                targets.clear()
                targets.update(renamed)
                config = run_config(spec, thread_id, lang=lang, run_id=run_id, batch_id=batch_id, options=options)
        if by_id and not targets:  # every question answered was settled by the copy's run (nothing left to ask)
            return None
        # One question answered without its id: resumed as before ids were needed (the same writes).
        payload = resume_command(dict(targets)) if by_id else resume_command(checked[None])
        ended = _drive(store, graph, payload, config, on_event, on_chunk, stream_modes, actor=actor, checked=True)
        head = readmodel.head_checkpoint_id(store, thread_id) if ended is not None else None
        return None if ended is None or head is None else Finished(head, ended)

    with thread_guard(store, thread_id, check=check):
        try:
            finished = run()
        except RunFailedError as error:
            if after is not None:
                after(error, None)
            raise
        if after is not None:
            after(None, finished)


def _open_tasks(store: Store, settings: Settings, thread_id: str) -> set[str]:
    """The ids of the head's tasks that have not finished (failed, or not run): read after a failed run.

    A task answered in the run that is not among them finished, at the head (its writes saved beside the
    failed task's error) or in a step before it.
    """
    snapshot = _snapshot(store, settings, _thread_spec(store, thread_id), thread_id)
    return {task.id for task in snapshot.tasks if task.error is not None or task.result is None}


def _renamed(targets: dict[str, Any], asked: dict[str, Any], fresh: Any) -> dict[str, Any]:
    """The answers by interrupt id, moved to the ids the same questions have after a copy of the head."""
    renamed: dict[str, Any] = {}
    for interrupt, answer in targets.items():
        same = [str(q.id) for q in fresh if q.value == asked.get(interrupt) and str(q.id) not in renamed]
        if same:
            renamed[same[0]] = answer
    return renamed


def _answered(thread_id: str, questions: Any, checked: dict[str | None, Any]) -> dict[str, Any]:
    """Interrupt id → answer, for the waiting ``questions`` the ``checked`` answers name."""
    waiting = [str(question.id) for question in questions]
    ids = ", ".join(waiting)
    if EVERY in checked:
        return {interrupt: checked[EVERY] for interrupt in waiting}
    if None in checked:
        if len(waiting) > 1:
            thread = repr(thread_id)
            raise InputError(
                "interrupt_id", text(STRINGS, "error.several_waiting", count=len(waiting), thread=thread, ids=ids)
            )
        return {waiting[0]: checked[None]}
    for interrupt in checked:
        if interrupt not in waiting:
            found = text(STRINGS, "error.unknown_interrupt", interrupt=repr(interrupt), thread=repr(thread_id), ids=ids)
            raise InputError("interrupt_id", found)
    return {str(interrupt): answer for interrupt, answer in checked.items()}


def _where(store: Store, spec: AgentSpec, thread_id: str, snapshot: Any) -> str | Text:
    """Where a thread that asks nothing stands, in words: what runs next, or how it ended."""
    if snapshot.next:
        return text(STRINGS, "error.runs_next", nodes=", ".join(snapshot.next))
    outcome, problem = spec.show.finished_outcome(store, thread_id, dict(snapshot.values))
    return outcome or problem


def resume_from_fields(
    store: Store,
    settings: Settings,
    thread_id: str,
    fields: dict[str, Any],
    *,
    agent: str | None = None,
    actor: Identity = LOCAL_OPERATOR,
    **kwargs: Any,
) -> RunResult:
    """Resumes with the agent's typed resume fields (the form's typed mode, an approver's decision).

    Blank values count as not given. ``agent`` refuses a thread of another agent (a refund
    decision sent to a robot thread). A form drawn for another head than the thread's
    (``expected_head`` in ``kwargs``) is refused as stale whatever its fields hold.
    """
    thread_id = lifecycle.thread_named(store, thread_id)
    spec = _thread_spec(store, thread_id)
    if agent is not None and spec.name != agent:
        raise InputError("thread_id", f"thread {thread_id!r} belongs to the {spec.name} agent, not {agent}")
    if kwargs.get("expected_head") is not None:
        # Before the fields: a stale form's empty approver on a case decided since is no reason to give. Checked
        # again under the thread's lease, where it decides (the thread may move on in between).
        check_head(store, thread_id, kwargs["expected_head"])
    given = _signed(spec, {key: value for key, value in fields.items() if value not in (None, "")}, actor)
    value = spec.ask.make_resume(validate_fields(spec.ask.resume_fields, given))
    return resume_thread(store, settings, thread_id, value, actor=actor, **kwargs)
