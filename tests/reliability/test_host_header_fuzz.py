"""Fuzzing the ``Host`` check: no text around a loopback name passes for it, whatever surrounds it.

Properties of ``agents.api.hosts.parse_host`` over arbitrary text and over a loopback name with
generated junk around it (userinfo, paths, spaces, extra colons, percent-escapes, look-alike letters),
and of the API's guard itself, driven in-process as ASGI with exactly those header bytes: a request
that is not addressed to this machine never reaches the app.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.api.hosts import HostError, parse_host
from agents.api.security import GuardMiddleware
from agents.validation import is_loopback

SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LOOPBACK = ["localhost", "127.0.0.1", "127.1.2.3", "[::1]"]
#: Characters that end an authority in a URL, or never belong in one.
DELIMITERS = "@/\\?# \t%:[];,\"'<>`{}|^~=&+$!*()"
_PORT = re.compile(r"(?::([0-9]{1,5}))?")

#: Junk to put around a name: delimiters, letters of another name, digits, look-alikes and invisible spaces.
JUNK_CHARS = DELIMITERS + "evil.example0123456789лосаl\u200b\u00a0"
junk = st.text(alphabet=st.sampled_from(JUNK_CHARS), min_size=1, max_size=12)


def _accepted(value: str) -> str | None:
    try:
        return parse_host(value)
    except HostError:
        return None


@SETTINGS
@given(st.text(max_size=40))
def test_an_accepted_host_is_the_whole_header_but_for_a_port(value: str) -> None:
    host = _accepted(value)
    if host is None:
        return
    assert value.lower().startswith(host)
    port = _PORT.fullmatch(value.lower()[len(host) :])
    assert port is not None, (value, host)
    assert port.group(1) is None or int(port.group(1)) <= 65535
    assert not set(host) & set("@/\\?# %\t"), host


@SETTINGS
@given(st.sampled_from(LOOPBACK), junk, st.booleans())
def test_junk_around_a_loopback_name_never_reads_as_loopback(name: str, extra: str, before: bool) -> None:
    value = extra + name if before else name + extra
    host = _accepted(value)
    if host is not None and is_loopback(host):
        # only a plain port may follow this machine's name
        assert _PORT.fullmatch(value.lower()[len(host) :]) and value.lower().startswith(host), value


@SETTINGS
@given(st.sampled_from(LOOPBACK), st.integers(min_value=0, max_value=65535))
def test_this_machines_names_with_any_port_are_loopback(name: str, port: int) -> None:
    assert parse_host(f"{name}:{port}") == name and is_loopback(name)
    assert parse_host(name.upper()) == name


def _through_the_guard(host_lines: list[bytes]) -> tuple[int, bool]:
    """The status the tokenless guard answers with these Host lines, and whether the app was reached."""
    reached: list[bool] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        reached.append(True)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})

    sent: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/threads", "headers": host_lines}
    asyncio.run(GuardMiddleware(app, token=None)(scope, receive, send))
    return sent[0]["status"], bool(reached)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(LOOPBACK), junk, st.booleans())
def test_the_guard_answers_junk_around_a_loopback_name_without_reaching_the_app(
    name: str, extra: str, before: bool
) -> None:
    value = extra + name if before else name + extra
    status, reached = _through_the_guard([(b"host", value.encode("utf-8"))])
    host = _accepted(value)
    if host is not None and is_loopback(host):
        assert (status, reached) == (200, True)
    else:
        assert status in (400, 403) and not reached, (value, status)
        assert status == 400 or host is not None  # 403 only for a well-formed other name


def test_the_guard_refuses_two_hosts_and_answers_one() -> None:
    assert _through_the_guard([(b"host", b"localhost"), (b"host", b"evil.example")]) == (400, False)
    assert _through_the_guard([(b"host", b"localhost:2024")]) == (200, True)
    assert _through_the_guard([(b"host", b"localhost:2031@evil")]) == (400, False)
    assert _through_the_guard([]) == (403, False)  # HTTP/1.0 without a Host: not addressed to this machine
