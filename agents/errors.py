"""Errors a user can cause. The UI and the CLI turn them into clear messages."""

from __future__ import annotations

#: Characters of a checkpoint id's random tail shown to humans.
SHORT_ID_LENGTH = 8


class UserError(Exception):
    """Something the user asked for cannot be done; nothing was changed."""


class InputError(UserError, ValueError):
    """A value the user gave is invalid.

    Attributes:
        field: The name of the field (form field, CLI option or state key).
        message: What is wrong, in words the user can act on.
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class ThreadNotFoundError(UserError):
    """The thread id names no thread in the database."""

    def __init__(self, thread_id: str) -> None:
        super().__init__(f"thread_id: no thread named {thread_id!r} in the database")
        self.thread_id = thread_id


class NotWaitingError(UserError):
    """A resume was asked of a thread that is not waiting for a human."""

    def __init__(self, thread_id: str, where: str = "") -> None:
        detail = f" ({where})" if where else ""
        super().__init__(f"thread_id: thread {thread_id!r} is not waiting for an answer{detail}; nothing was changed")
        self.thread_id = thread_id


class StaleFormError(UserError):
    """The thread moved on after the form was drawn (another tab or approver acted)."""

    def __init__(self, thread_id: str, expected: str | None, found: str | None) -> None:
        super().__init__(
            f"thread {thread_id!r} changed since this form was drawn "
            f"(checkpoint {short_id(expected)} → {short_id(found)}); "
            "nothing was done. Reload to see the current state."
        )
        self.thread_id = thread_id
        self.expected = expected
        self.found = found


def short_checkpoint_id(checkpoint_id: str) -> str:
    """Return a readable short form of a checkpoint id.

    LangGraph ids are uuid6 strings whose leading groups encode the time and
    are nearly identical within one thread; the last group is random, so its
    first 8 characters tell checkpoints apart at a glance. Ids without a '-'
    are cut to their first 8 characters.

    Args:
        checkpoint_id: Full checkpoint id.

    Returns:
        Up to 8 characters identifying the checkpoint for humans.
    """
    return checkpoint_id.rsplit("-", 1)[-1][:SHORT_ID_LENGTH]


def short_id(checkpoint_id: str | None) -> str:
    """The readable short form of a checkpoint id used everywhere in the UI and CLI."""
    return short_checkpoint_id(checkpoint_id) if checkpoint_id else "none"


class RunFailedError(Exception):
    """A node raised while a run went on: what had finished is saved, the thread needs attention.

    Not a :class:`UserError`: the thread may have changed (the steps before the
    failure are saved). The thread's status is ``attention`` with the error as
    its reason, so it shows in every inbox until someone re-runs or continues it.
    """

    def __init__(self, thread_id: str, error: BaseException) -> None:
        super().__init__(
            f"thread {thread_id!r}: a step failed ({type(error).__name__}: {error}). What finished "
            "before it is saved; the thread is in the inbox, needing attention."
        )
        self.thread_id = thread_id
        self.error = error


class PermissionDenied(UserError):
    """The identity acting may not do this (its role, an approver's limit, four eyes); nothing was changed.

    Attributes:
        action: The action refused (one of ``agents.identity.ACTIONS``).
        reason: Why, in words the user can act on.
    """

    def __init__(self, action: str, reason: str) -> None:
        super().__init__(f"not allowed: {reason}")
        self.action = action
        self.reason = reason
