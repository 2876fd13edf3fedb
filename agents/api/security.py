"""The ASGI guards every request passes before a route: request id, token, host, body size and syntax.

Without a token the server answers only requests addressed to this machine (a DNS rebinding is
refused); a bearer token (or the SDK's ``x-api-key``) names who a request acts for; a body over
the limit is refused unread, and one FastAPI would fail to parse is refused with the field named.
An internal error is logged with a request id and answered
``500 {"detail": "internal error", "request_id": ...}``, never with a traceback.
"""

from __future__ import annotations

import hmac
import json
import logging
import uuid
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from agents.api.errors import ApiError, error_body, status_of
from agents.api.hosts import HostError, request_host
from agents.errors import InputError
from agents.identity import LOCAL_OPERATOR, Identity, Roles
from agents.roles_file import RolesFileError, current_roles
from agents.strings import STRINGS
from agents.texts import text
from agents.validation import check_json_body, is_loopback

logger = logging.getLogger("agents.api")

#: The largest request body the server reads (a whole update_state is at most 512 KiB of JSON).
BODY_MAX_BYTES = 1024 * 1024

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


async def send_json(send: Send, status: int, body: dict[str, Any], headers: list[tuple[bytes, bytes]]) -> None:
    """Sends a whole JSON answer."""
    payload = json.dumps(body, ensure_ascii=False).encode("utf-8")
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(payload)).encode()),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": payload})


def presented_tokens(headers: list[tuple[bytes, bytes]]) -> list[bytes]:
    """The tokens a request carries: ``Authorization: Bearer <token>`` and the SDK's ``x-api-key`` (an empty
    one is no token)."""
    found: list[bytes] = []
    for name, value in headers:
        key = name.lower()
        if key == b"authorization" and value[:7].lower() == b"bearer ":
            found.append(value[7:].strip())
        elif key == b"x-api-key":
            found.append(value.strip())
    return [token for token in found if token]


def token_matches(headers: list[tuple[bytes, bytes]], token: str) -> bool:
    """Whether ``Authorization: Bearer <token>`` (or the SDK's ``x-api-key``) carries the token."""
    expected = token.encode("utf-8")
    return any(hmac.compare_digest(presented, expected) for presented in presented_tokens(headers))


def request_identity(
    headers: list[tuple[bytes, bytes]], token: str | None, roles: Roles | None, local: Identity = LOCAL_OPERATOR
) -> Identity | None:
    """Who a request acts for, or None when it must be refused (401).

    Without any token configured (the server then listens on loopback only) every request is the
    local operator (``local``: with its configured approver name, if any). ``HITL_API_TOKEN`` is the
    operator's own token, with every right. A token of the roles file acts as the identity it maps to;
    only its SHA-256 is compared.
    """
    if token is None and (roles is None or not roles.has_tokens):
        return local
    if token is not None and token_matches(headers, token):
        return local
    if roles is not None:
        for presented in presented_tokens(headers):
            found = roles.identity_for_token(presented.decode("utf-8", "replace"))
            if found is not None:
                return found
    return None


def token_refusal(headers: list[tuple[bytes, bytes]], operator_token: bool) -> tuple[dict[str, Any], bytes]:
    """The 401 body and ``WWW-Authenticate`` value of a request :func:`request_identity` refused.

    A request that sent no token is told to send one; one that sent a token is told that it is not
    accepted (RFC 6750's ``invalid_token``), so a client can tell a missing header from a wrong or stale
    token. Neither answer repeats what was sent.
    """
    named = "HITL_API_TOKEN" if operator_token else text(STRINGS, "api.token.yours")
    if presented_tokens(headers):
        return error_body(str(text(STRINGS, "api.error.token_wrong", named=named))), b'Bearer error="invalid_token"'
    return error_body(str(text(STRINGS, "api.error.token_missing", named=named))), b"Bearer"


def addressed_to_loopback(headers: list[tuple[bytes, bytes]]) -> bool:
    """Whether the request's ``Host`` names this machine (``localhost``, ``127.x.x.x``, ``[::1]``).

    Without a token only such requests are answered: a web page elsewhere whose name a DNS
    rebinding points at 127.0.0.1 reaches the server with its own name as the host, and is refused.
    The header is parsed strictly (``agents.api.hosts``), so no text around a loopback name
    (``localhost:2031@evil``) passes for it.

    Raises:
        HostError: The ``Host`` header is not an authority (answered 400).
    """
    host = request_host(headers)
    return host is not None and is_loopback(host)


def parsed_as_json(headers: list[tuple[bytes, bytes]]) -> bool:
    """Whether FastAPI parses the body as JSON: no ``Content-Type``, ``application/json`` or ``+json``."""
    value = next((value for name, value in headers if name.lower() == b"content-type"), None)
    if value is None:
        return True
    kind = value.split(b";", 1)[0].strip().lower()
    return kind == b"application/json" or (kind.startswith(b"application/") and kind.endswith(b"+json"))


class GuardMiddleware:
    """Gives every request an id, checks the token, limits the body and answers internal errors.

    A pure ASGI middleware (not a ``BaseHTTPMiddleware``), so streamed answers pass through
    untouched and an exception raised before the answer started becomes a logged 500 with the
    request id.
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        token: str | None,
        roles: Roles | None = None,
        local: Identity = LOCAL_OPERATOR,
        body_limit: int = BODY_MAX_BYTES,
    ) -> None:
        self.app = app
        self.token = token
        self.roles = roles
        self.local = local
        self.body_limit = body_limit
        #: No token at all: every request is the local operator, so it must be addressed to this machine.
        self.tokenless = token is None and (roles is None or not roles.has_tokens)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = uuid.uuid4().hex[:16]
        scope.setdefault("state", {})["request_id"] = request_id
        id_header = [(b"x-request-id", request_id.encode())]
        headers = list(scope.get("headers") or [])
        try:
            loopback = addressed_to_loopback(headers)
        except HostError as error:
            await send_json(send, 400, error_body(f"a bad Host header: {error}", "host"), id_header)
            return
        try:
            roles = current_roles(self.roles)  # the file as it is now: an edit applies from the next request
        except RolesFileError as error:  # refused as at start: an edit gone wrong leaves no one the old rights
            await send_json(send, 503, error_body(str(error), "roles"), id_header)
            return
        identity = request_identity(headers, self.token, roles, self.local)
        if identity is None:
            refusal, challenge = token_refusal(headers, self.token is not None)
            await send_json(send, 401, refusal, [*id_header, (b"www-authenticate", challenge)])
            return
        if self.tokenless and not loopback:
            detail = (
                "without a token this server answers only requests addressed to localhost or 127.0.0.1 "
                "(a page elsewhere could reach it through DNS rebinding); set HITL_API_TOKEN to serve other names"
            )
            await send_json(send, 403, error_body(detail, "host"), id_header)
            return
        scope["state"]["identity"] = identity
        length = next((value for name, value in headers if name.lower() == b"content-length"), None)
        if length is not None and (not length.isdigit() or int(length) > self.body_limit):
            detail = f"the request body is over the limit of {self.body_limit:,} bytes"
            await send_json(send, 413, error_body(detail, "body"), id_header)
            return
        # The whole body is read here (it is small, or refused), so the app never sees more than the limit.
        chunks: list[bytes] = []
        received = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunks.append(message.get("body", b""))
            received += len(chunks[-1])
            more = bool(message.get("more_body"))
            if received > self.body_limit:
                detail = f"the request body is over the limit of {self.body_limit:,} bytes"
                await send_json(send, 413, error_body(detail, "body"), id_header)
                return
        body = b"".join(chunks)
        if body and parsed_as_json(headers):
            try:  # FastAPI answers 400 "There was an error parsing the body" for what its parser raises
                check_json_body(body)
            except InputError as error:
                status, refusal = status_of(error)
                await send_json(send, status, refusal, id_header)
                return
        replayed = False
        started = False

        async def replay_receive() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        async def tracked_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message["headers"] = [*message.get("headers", []), *id_header]
            await send(message)

        try:
            await self.app(scope, replay_receive, tracked_send)
        except ApiError as error:
            if started:
                raise
            await send_json(send, error.status, error_body(error.detail, error.field), id_header)
        except Exception:
            logger.exception("request %s (%s %s) failed", request_id, scope.get("method"), scope.get("path"))
            if started:
                return
            failure = error_body("internal error; the server log has the details", request_id=request_id)
            await send_json(send, 500, failure, id_header)
