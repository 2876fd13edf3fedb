"""The ``Host`` header, read strictly: the one name a request is addressed to, or a refusal.

RFC 9110 (section 7.2) has ``Host = uri-host [ ":" port ]``, the authority of RFC 3986 without
userinfo. A server without a token answers only requests addressed to this machine (the guard
against DNS rebinding), so what it compares must be the name a browser would have connected to,
never a part cut out of something else: ``localhost:2031@evil`` is not ``localhost``, it is no
authority at all. Anything outside the grammar (userinfo, spaces, a path, a second ``Host``, an
empty or out-of-range port, an IP address with leading zeros, a zone id, percent-encoding) is
refused, as RFC 9112 (section 3.2) asks: 400 for a ``Host`` field with an invalid value.

Names are narrower than RFC 3986's ``reg-name``: DNS labels of letters, digits and hyphens,
which is what a browser sends (it sends a non-ASCII name in its ``xn--`` form).
"""

from __future__ import annotations

import ipaddress
import re

#: One DNS label: letters, digits and inner hyphens, at most 63 characters.
_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
#: A host name of DNS labels (a final dot, the root, allowed); at most 253 characters is checked apart.
_NAME = re.compile(rf"{_LABEL}(?:\.{_LABEL})*\.?")
#: RFC 3986's IPv4address: four dec-octets, none with a leading zero.
_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9][0-9]|[0-9])"
_IPV4 = re.compile(rf"{_OCTET}(?:\.{_OCTET}){{3}}")
#: What an IPv6 literal may hold inside its brackets (the address itself is checked by ``ipaddress``).
_IPV6_CHARS = re.compile(r"[0-9a-f:.]+")
_PORT = re.compile(r"[0-9]{1,5}")
NAME_MAX_LENGTH = 253


class HostError(ValueError):
    """A ``Host`` header that is not an authority; the message says what is wrong with it."""


def _port_problem(port: str) -> str:
    if not _PORT.fullmatch(port) or int(port) > 65535:
        return f"the port {port!r} is not a number from 0 to 65535"
    return ""


def parse_host(value: str) -> str:
    """The host name or address ``value`` names, lowercased, without its port.

    ``localhost:2024`` gives ``localhost``, ``[::1]:2024`` gives ``[::1]``, ``127.0.0.1`` itself.

    Raises:
        HostError: ``value`` is not ``uri-host [":" port]`` as described in the module docstring.
    """
    if not value:
        raise HostError("the Host header is empty")
    if not value.isascii() or not value.isprintable() or " " in value:
        raise HostError("the Host header holds spaces, control or non-ASCII characters")
    text = value.lower()
    if text.startswith("["):
        end = text.find("]")
        inside, rest = (text[1:end], text[end + 1 :]) if end > 0 else ("", text)
        if end < 0 or not _IPV6_CHARS.fullmatch(inside):
            raise HostError(f"{value!r} is not an IPv6 address in brackets")
        try:
            ipaddress.IPv6Address(inside)
        except ValueError:
            raise HostError(f"{value!r} is not an IPv6 address in brackets") from None
        host = f"[{inside}]"
    else:
        host, colon, port = text.partition(":")
        rest = colon + port
        if not (_IPV4.fullmatch(host) or _looks_like_name(host)):
            raise HostError(f"{value!r} is not a host name or an IPv4 address (with an optional :port)")
    if rest:
        if not rest.startswith(":"):
            raise HostError(f"{value!r} has {rest!r} after the host")
        if problem := _port_problem(rest[1:]):
            raise HostError(f"{value!r}: {problem}")
    return host


def _looks_like_name(host: str) -> bool:
    """A DNS name that is not an IPv4 address with leading zeros or too few parts (``127.000.0.1``)."""
    if len(host) > NAME_MAX_LENGTH or not _NAME.fullmatch(host):
        return False
    return not all(part.isdigit() for part in host.rstrip(".").split("."))


def request_host(headers: list[tuple[bytes, bytes]]) -> str | None:
    """The host a request is addressed to: None without a ``Host`` header (HTTP/1.0).

    Raises:
        HostError: More than one ``Host`` header, or one whose value :func:`parse_host` refuses.
    """
    values = [value for name, value in headers if name.lower() == b"host"]
    if not values:
        return None
    if len(values) > 1:
        raise HostError("the request has more than one Host header")
    return parse_host(values[0].decode("latin-1"))
