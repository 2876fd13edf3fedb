"""Which decision controls a case page keeps drawn: the head they were drawn for, and the items they ask about.

A case's controls follow the case while it waits. When the case (or one of its items) moves on elsewhere
(another tab, another approver), the controls stay, with a notice, through any rerun (typing a name)
until the approver clicks: the click is then refused with a message instead of landing on controls that
vanished. The session's own action (a sidebar form, a button) is no one else's change: it starts afresh.
A refused click is said beside the buttons clicked while they are drawn, else in the page's own place for it.
Pure functions of what the session remembers and what the database holds, so they are tested without
Streamlit.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from agents.errors import InputError, UserError
from agents.validation import parse_whole_number

#: (thread id, head the controls were drawn for; None when drawn for no waiting head).
View = tuple[str, str | None]
#: (interrupt id, its question): one waiting item of a case.
Item = tuple[str, Any]


@dataclass(frozen=True)
class ControlsView:
    """The decision controls' head for this run.

    Attributes:
        view: What to remember for the next run.
        stale: The case moved on since the controls were drawn: they stay, and a click is refused.
        head: The head a click is checked against (the drawn one when stale, else ``expected``).
    """

    view: View
    stale: bool
    head: str | None


def moved_on(drawn_for: str, head: str | None, status: str) -> bool:
    """A thread moved on from ``drawn_for``, the head its controls were drawn for: its head moved, or another
    process is deciding it. A run begins before its head moves, so the controls (and what is typed in them)
    stay from then on, not dropped while it runs and missing, or drawn afresh, once it is saved."""
    return drawn_for != head or status == "running"


def controls_view(
    remembered: View | None, thread_id: str, status: str, head: str | None, expected: str | None, *, own_action: bool
) -> ControlsView:
    """The head the case's controls stand for, given what was ``remembered`` from the last run.

    Args:
        remembered: The view of the last run, if any.
        thread_id: The case shown now.
        status: Its lifecycle status now.
        head: Its head checkpoint now.
        expected: The head the page drew on its last run (``dashboard.forms.drawn_head``).
        own_action: This session's own action moved the case on (``dashboard.forms.acted_here``).
    """
    view = None if own_action else remembered
    if status == "waiting" or not view or view[0] != thread_id:
        view = (thread_id, head if status == "waiting" else None)
    stale = view[1] is not None and moved_on(view[1], head, status)
    return ControlsView(view, stale, view[1] if stale else expected)


def items_to_draw(
    thread_id: str, waiting: Sequence[Item], drawn: tuple[str, Sequence[Item]] | None, *, own_action: bool
) -> tuple[list[Item], list[Item]]:
    """(every item to draw controls for, in order, those of them decided elsewhere since they were drawn).

    Every waiting item is drawn; so is every item drawn for this case on the last run that no longer
    waits, unless this session's own action decided it. The items keep the places the last run drew them
    in (an item that arrived since comes last), so an item decided elsewhere keeps its controls where the
    person's pointer may be, and a click meant for it is refused rather than landing on the next item.
    """
    if not drawn or drawn[0] != thread_id or own_action:
        return list(waiting), []
    fresh = dict(waiting)
    kept = [(interrupt, fresh.get(interrupt, question)) for interrupt, question in drawn[1]]
    placed = {interrupt for interrupt, _ in drawn[1]}
    gone = [(interrupt, question) for interrupt, question in drawn[1] if interrupt not in fresh]
    return [*kept, *(item for item in waiting if item[0] not in placed)], gone


def refusal(state: Any, key: str, thread_id: str) -> str | None:
    """Why the last decision from a page's controls on ``thread_id`` was refused: ``state[key]`` holds
    (thread, message) until the page's own run (:func:`forget`). None on a run whose controls drew it beside
    their own buttons already (:func:`refused_here`): it is said once, where the click was."""
    kept = state.get(key)
    if kept is not None and state.pop(f"{key}:drawn", None) == kept:
        return None
    return kept[1] if kept and kept[0] == thread_id else None


def note_refused_by(state: Any, key: str, controls: str, sent: str = "") -> None:
    """The refusal now kept under ``key`` (if any) answers a click on the controls named ``controls``, which sent
    ``sent`` with it (an edit: the amount typed)."""
    if state.get(key) is not None:
        state[f"{key}:by"] = (state[key], controls, sent)


def refused_here(state: Any, key: str, thread_id: str, controls: str, holding: str = "") -> str | None:
    """Why the last click on the controls named ``controls`` was refused, for them to draw beside their buttons
    (on a first screen, where the click was); :func:`refusal` then says nothing on the same run.

    Only while they are drawn: a run that draws no controls (the case decided elsewhere, its item gone) has
    the refusal said by :func:`refusal`, in the page's own place for it. And only while they hold what they
    sent (``holding``: an edit's amount as typed now): a refusal never outlives the amount it refused, which
    the controls then check as they do any amount; it is said by no other place either.
    """
    kept, by = state.get(key), state.get(f"{key}:by")
    if not kept or kept[0] != thread_id or by is None or tuple(by[:2]) != (kept, controls):
        return None
    state[f"{key}:drawn"] = kept
    return str(kept[1]) if by[2] == holding else None


def forget(state: Any, *keys: str) -> None:
    """The page's own run (a decision sent here, a sidebar form, another thread) draws the thread as it is:
    the controls and the refusal remembered under ``keys`` go, with where the refusal was drawn."""
    for key in keys:
        for remembered in (key, f"{key}:by", f"{key}:drawn"):
            state.pop(remembered, None)


def edit_fields(typed: str) -> tuple[dict[str, Any], UserError | None]:
    """(the fields an edit sends for the amount ``typed``, why it reads as no whole number or None).

    Nothing typed sends no amount: the rules that every path goes through say an edit needs one. Text that
    reads as no whole number is sent as typed, so a click on controls drawn for another head is refused as
    stale first, whatever they hold; the refusal of the field itself is then said as the page read it
    (:func:`said_as_read`), not as the refusal of a JSON string.
    """
    if not typed.strip():
        return {}, None
    try:
        return {"amount": parse_whole_number(typed, "amount")}, None
    except UserError as error:
        return {"amount": typed}, error


@contextmanager
def said_as_read(unreadable: UserError | None) -> Iterator[None]:
    """Within it, a refusal of the amount is ``unreadable`` (:func:`edit_fields`) when the page could not read it."""
    try:
        yield
    except InputError as error:
        if unreadable is None or error.field != "amount":
            raise
        raise unreadable from error
