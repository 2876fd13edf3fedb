"""Which decision controls a case page keeps drawn: the head they were drawn for, and the items they ask about.

A case's controls follow the case while it waits. When the case (or one of its items) moves on elsewhere
(another tab, another approver), the controls stay, with a notice, through any rerun (typing a name)
until the approver clicks: the click is then refused with a message instead of landing on controls that
vanished. The session's own action (a sidebar form, a button) is no one else's change: it starts afresh.
Pure functions of what the session remembers and what the database holds, so they are tested without
Streamlit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

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
    """(every item to draw controls for, those of them decided elsewhere since they were drawn).

    Every waiting item is drawn; so is every item drawn for this case on the last run that no longer
    waits, unless this session's own action decided it.
    """
    known = {interrupt for interrupt, _ in waiting}
    gone: list[Item] = []
    if drawn and drawn[0] == thread_id and not own_action:
        gone = [(interrupt, question) for interrupt, question in drawn[1] if interrupt not in known]
    return [*waiting, *gone], gone


def refusal(state: Any, key: str, thread_id: str) -> str | None:
    """Why the last decision from a page's controls on ``thread_id`` was refused: ``state[key]`` holds
    (thread, message) until the page's own run (:func:`forget`)."""
    kept = state.get(key)
    return kept[1] if kept and kept[0] == thread_id else None


def forget(state: Any, *keys: str) -> None:
    """The page's own run (a decision sent here, a sidebar form, another thread) draws the thread as it is:
    the controls and the refusal remembered under ``keys`` go."""
    for key in keys:
        state.pop(key, None)
