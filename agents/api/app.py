"""The FastAPI app: one database, the same ``runs`` write path as the dashboard and the CLI.

:func:`create_app` builds it on an opened store and the process's settings. The routes live in
:mod:`agents.api.lecture` (the lecture planner's ``/generate`` and ``/resume``),
:mod:`agents.api.threads` (assistants, threads, state, history) and :mod:`agents.api.run_routes`
(runs: wait, create + join, stream). Every request passes :class:`~agents.api.security.GuardMiddleware`
(request id, bearer token and the identity it maps to, body size); every refusal is JSON naming the
field. The routes pass the request's identity to ``runs``, which refuses (403) what it may not do.
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from agents import readmodel
from agents.api import decisions, info, lecture, run_routes, threads
from agents.api.context import ApiContext
from agents.api.errors import ApiError, error_body, status_of
from agents.api.security import GuardMiddleware
from agents.db import DatabaseError, Store
from agents.errors import RunFailedError, UserError
from agents.identity import local_operator
from agents.settings import Settings
from agents.strings import STRINGS
from agents.texts import Text, text

logger = logging.getLogger("agents.api")


def _validation_error(request: Request, error: RequestValidationError) -> JSONResponse:
    """FastAPI's own body checks (a body that is not JSON, a field that is not known) named by field."""
    first = error.errors()[0] if error.errors() else {}
    location = [str(part) for part in first.get("loc", ()) if part not in ("body", "query", "path")]
    name = ".".join(location) or "body"
    kind = str(first.get("type", ""))
    if kind == "extra_forbidden":
        message = "is not a known field"
    elif kind == "missing":
        message = "is required"
    elif kind == "json_invalid":
        message = "is not valid JSON"
        name = "body"
    else:
        message = str(first.get("msg", "is not valid"))
    return JSONResponse(error_body(f"{name}: {message}", name), status_code=422)


def _user_error(request: Request, error: Exception) -> JSONResponse:
    status, body = status_of(error)
    return JSONResponse(body, status_code=status)


def _run_failed(request: Request, error: Exception) -> JSONResponse:
    """A step raised: what finished is saved and the thread needs attention (as the CLI says it)."""
    assert isinstance(error, RunFailedError)
    request_id = str(getattr(request.state, "request_id", ""))
    logger.warning("request %s: %s", request_id, error)
    body = error_body(str(error), thread_id=error.thread_id, status="attention", request_id=request_id)
    return JSONResponse(body, status_code=500)


def _http_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, StarletteHTTPException)
    detail = error.detail if isinstance(error.detail, str) else "refused"
    if error.status_code == 404:
        detail = f"no such endpoint: {request.method} {request.url.path}"
    elif error.status_code == 405:
        detail = f"{request.method} is not supported on {request.url.path}"
    return JSONResponse(error_body(detail), status_code=error.status_code)


def database_problem(store: Store) -> Text | None:
    """Why the server cannot change its database, or None: it was opened read-only (SQLite does that to a
    file it cannot write, silently), or a write would be refused now (:meth:`~agents.db.Store.cannot_write`:
    a SQLite file that stopped being writable, a PostgreSQL server that takes no writes or a role that lost
    its grants). Asked at each ``GET /ok`` and at the start of ``serve``."""
    if store.read_only:
        return text(STRINGS, "api.health.read_only", path=store.path)
    found = store.cannot_write()
    if found is None:
        return None
    reason, tables = found
    return text(STRINGS, f"api.health.not_writable.{reason}", path=store.path, tables=", ".join(tables))


def health(store: Store) -> JSONResponse:
    """``GET /ok``: ``{"ok": true}``, or 503 ``{"ok": false, "detail"}`` when the database cannot be read or written.

    LangGraph's server fails its health check likewise when its storage cannot be used (``"ok": false``, its
    ``services`` naming the part that is not healthy); the status is the 503 every request that needs the
    database gets then. One read of an index and no write, so polling it costs next to nothing.
    """
    try:
        readmodel.head_checkpoint_id(store, "ok")
    except DatabaseError as error:
        status, body = status_of(error)
        return JSONResponse({"ok": False, **body, "services": {"database": "unhealthy"}}, status_code=status)
    problem = database_problem(store)
    if problem is not None:
        body = {"ok": False, **error_body(str(problem)), "services": {"database": "unhealthy"}}
        return JSONResponse(body, status_code=503)
    return JSONResponse({"ok": True})


def create_app(store: Store, settings: Settings, *, base_url: str = "http://127.0.0.1:2024") -> FastAPI:
    """The API on ``store``; the bearer tokens are ``settings.api_token`` and the roles file's."""
    app = FastAPI(
        title="HITL Dashboard API",
        description="The lecture planner's /generate and /resume, and a subset of the LangGraph server API, "
        "on the dashboard's own database.",
        version=info.API_VERSION,
    )
    token = settings.api_token.reveal() if settings.api_token is not None else None
    roles = settings.roles
    required = token is not None or (roles is not None and roles.has_tokens)
    app.state.context = ApiContext(store, settings, base_url.rstrip("/"), token_required=required)
    local = local_operator(settings.local_approver)  # HITL_LOCAL_APPROVER: never with a roles file
    app.add_middleware(GuardMiddleware, token=token, roles=roles, local=local)
    info.allow_origins(app, settings.api_cors_origins)  # added last, so outside every other middleware
    app.add_exception_handler(RequestValidationError, _validation_error)  # type: ignore[arg-type]
    for kind in (UserError, ApiError, DatabaseError):
        app.add_exception_handler(kind, _user_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(RunFailedError, _run_failed)

    @app.get("/ok", tags=["health"])
    def ok() -> JSONResponse:
        """The health check: the server answers and its database can be read and written (503 if not)."""
        return health(store)

    app.include_router(info.router)
    app.include_router(lecture.router)
    app.include_router(threads.router)
    app.include_router(run_routes.router)
    app.include_router(decisions.router)
    return app
