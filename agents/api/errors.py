"""Errors as HTTP answers: the status and JSON body of every refusal.

Every refusal is JSON ``{"detail": "...", "field": "..."}`` (``field`` when one field is to blame)
and changes nothing: bad input 422 (the validators' own messages), an action the caller's identity
may not take 403 (with the reason), an unknown thread or assistant 404, a stale form or a busy
thread 409. The guards every request passes first (token, host, body) are :mod:`agents.api.security`.
"""

from __future__ import annotations

from typing import Any

from agents.db import DatabaseError
from agents.errors import InputError, NotWaitingError, PermissionDenied, StaleFormError, ThreadNotFoundError, UserError
from agents.leases import ThreadBusyError


class ApiError(Exception):
    """A refusal with its HTTP status (the original service's 400 and 404, a 405 of an unsupported call)."""

    def __init__(self, status: int, detail: str, field: str | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.field = field


def error_body(detail: str, field: str | None = None, **extra: Any) -> dict[str, Any]:
    """The JSON of a refusal."""
    body: dict[str, Any] = {"detail": detail}
    if field is not None:
        body["field"] = field
    body.update(extra)
    return body


def status_of(error: BaseException) -> tuple[int, dict[str, Any]]:
    """The HTTP status and body of a user error (nothing was changed)."""
    if isinstance(error, ApiError):
        return error.status, error_body(error.detail, error.field)
    if isinstance(error, PermissionDenied):
        return 403, error_body(str(error), reason=error.reason, action=error.action)
    if isinstance(error, ThreadNotFoundError):
        return 404, error_body(str(error), "thread_id")
    if isinstance(error, StaleFormError | ThreadBusyError):
        return 409, error_body(str(error), "thread_id")
    if isinstance(error, NotWaitingError):
        return 409, error_body(str(error), "thread_id")
    if isinstance(error, InputError):
        if error.field == "agent":
            return 404, error_body(str(error), "assistant_id")
        return 422, error_body(str(error), error.field)
    if isinstance(error, DatabaseError):
        return 503, error_body(f"the database cannot be used: {error}")
    return 422, error_body(str(error))


def is_user_error(error: BaseException) -> bool:
    """Whether the error is the caller's (answered with a 4xx), not the server's."""
    return isinstance(error, UserError | ApiError | DatabaseError)
