"""Errors a user can cause. The UI and the CLI turn them into clear messages."""

from __future__ import annotations

from agents.identity_strings import STRINGS as IDENTITY_STRINGS
from agents.strings import STRINGS
from agents.texts import DEFAULT_LANGUAGE, Text, text

#: Characters of a checkpoint id's random tail shown to humans.
SHORT_ID_LENGTH = 8


class UserError(Exception):
    """Something the user asked for cannot be done; nothing was changed.

    ``text`` is the message as a :class:`~agents.texts.Text` when it has a catalogue key, so
    :meth:`render` gives it in the reader's language; ``str(error)`` is the English.
    """

    text: Text | None = None

    def render(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The message in ``lang`` (the English one when it has no translation)."""
        return self.text.render(lang) if self.text is not None else str(self)


#: The catalogue key of ``field: message``, whose ``field`` a page names by its label.
FIELD_MESSAGE_KEY = "error.field"


class InputError(UserError, ValueError):
    """A value the user gave is invalid.

    Attributes:
        field: The name of the field (form field, CLI option or state key).
        message: What is wrong, in English words the user can act on.
        text: ``field: message`` as a translatable text, when ``message`` was given as one.
    """

    def __init__(self, field: str, message: str | Text) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = str(message)
        if isinstance(message, Text):
            self.text = text(STRINGS, FIELD_MESSAGE_KEY, field=field, message=message)


class ThreadNotFoundError(UserError):
    """The thread id names no thread in the database."""

    def __init__(self, thread_id: str) -> None:
        self.text = text(STRINGS, "error.no_thread", thread=repr(thread_id))
        super().__init__(str(self.text))
        self.thread_id = thread_id


class NotWaitingError(UserError):
    """A resume was asked of a thread that is not waiting for a human."""

    def __init__(self, thread_id: str, where: str | Text = "") -> None:
        key = "error.not_waiting.where" if where else "error.not_waiting"
        self.text = text(STRINGS, key, thread=repr(thread_id), where=where)
        super().__init__(str(self.text))
        self.thread_id = thread_id


class StaleFormError(UserError):
    """The thread moved on after the form was drawn (another tab or approver acted)."""

    def __init__(self, thread_id: str, expected: str | None, found: str | None) -> None:
        self.text = text(STRINGS, "error.stale", thread=repr(thread_id), seen=short_id(expected), head=short_id(found))
        super().__init__(str(self.text))
        self.thread_id = thread_id
        self.expected = expected
        self.found = found


def short_checkpoint_id(checkpoint_id: str) -> str:
    """Return a readable short form of a checkpoint id.

    LangGraph ids are uuid6 strings whose leading groups encode the time and
    are nearly identical within one thread; the last group is random, so its
    first 8 characters tell checkpoints apart at a glance. Ids without a '-'
    are cut to their first 8 characters.
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

    ``text`` is the whole message as a :class:`~agents.texts.Text` (what failed, that what finished is
    saved, that the thread waits in the inbox), so :meth:`render` gives it in the reader's language;
    ``str(error)`` is the English. The failure itself is the error's own text (a :class:`UserError`
    raised by a node: in the reader's language too).
    """

    def __init__(self, thread_id: str, error: BaseException) -> None:
        detail: str | Text = error.text if isinstance(error, UserError) and error.text is not None else str(error)
        self.text = text(STRINGS, "error.run_failed", thread=repr(thread_id), kind=type(error).__name__, error=detail)
        super().__init__(str(self.text))
        self.thread_id = thread_id
        self.error = error

    def render(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The message in ``lang``."""
        return self.text.render(lang)


class RunCancelled(Exception):
    """Raised by a run's stream callback to stop the run at the step it reached (a cancel).

    The run's stream is closed before this leaves :func:`agents.runs._drive`: the last saved
    checkpoint stays the head, its pending steps are what a continue runs next.
    """


class PermissionDenied(UserError):
    """The identity acting may not do this (its role, an approver's limit, four eyes); nothing was changed.

    ``reason`` given as a :class:`~agents.texts.Text` (every refusal of ``agents.identity``) makes the
    whole message one too, ``not allowed: REASON``, so :meth:`render` gives it in the reader's language.

    Attributes:
        action: The action refused (one of ``agents.identity.ACTIONS``).
        reason: Why, in English words the user can act on.
    """

    def __init__(self, action: str, reason: str | Text) -> None:
        super().__init__(f"not allowed: {reason}")
        self.action = action
        self.reason = str(reason)
        if isinstance(reason, Text):
            self.text = text(IDENTITY_STRINGS, "error.not_allowed", reason=reason)
