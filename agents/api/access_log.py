"""The server's access log without secrets: query strings are redacted before uvicorn writes them.

uvicorn logs each request as ``client - "METHOD /path?query HTTP/1.1" status``. The API reads no
secret from a URL (the token comes in ``Authorization`` or ``x-api-key``), but a client may still
put one there (``?token=...``, ``?api_key=...``, a signed link) and the request, even refused, would
be written to the log in full. :class:`RedactQuery` rewrites the query string of each access-log
record: a parameter LangGraph's clients use for paging and flags keeps a plain value (a number, a
word), a credential's name is kept with its value written ``***``, and any other parameter is
written ``***`` whole, since neither its name nor its value is known to be harmless.
"""

from __future__ import annotations

import logging
import re
import urllib.parse

#: The access log's logger (uvicorn's).
ACCESS_LOGGER = "uvicorn.access"

#: Query parameters shown as sent: LangGraph's clients' paging, filters and flags. None carries a secret.
SHOWN_PARAMETERS = frozenset(
    {"limit", "offset", "status", "sort_by", "sort_order", "subgraphs", "xray", "stream_mode", "lang", "wait"}
)
#: Names a credential goes by: kept in the log (so an operator sees one was sent in the URL), values hidden.
CREDENTIAL_NAMES = frozenset(
    {
        "token", "access_token", "id_token", "refresh_token", "api_key", "apikey", "api-key", "x-api-key", "key",
        "password", "passwd", "pwd", "secret", "client_secret", "auth", "authorization", "bearer", "jwt",
        "session", "sessionid", "signature", "sig", "code", "hitl_api_token",
    }
)  # fmt: skip
HIDDEN = "***"
#: What a shown parameter's value may look like (a number, a word, a list of words); anything else is hidden.
_PLAIN_VALUE = re.compile(r"[A-Za-z0-9_.,:-]{0,20}")


def redact_query(query: str) -> str:
    """The query string with every value that may be a secret written ``***`` (see the module)."""
    shown = []
    for pair in query.split("&"):
        if not pair:
            continue
        raw_name, has_value, value = pair.partition("=")
        name = urllib.parse.unquote_plus(raw_name).strip().casefold()
        if name in SHOWN_PARAMETERS and has_value:
            shown.append(pair if _PLAIN_VALUE.fullmatch(value) else f"{raw_name}={HIDDEN}")
        elif name in CREDENTIAL_NAMES:
            shown.append(f"{raw_name}={HIDDEN}")
        else:
            shown.append(HIDDEN)
    return "&".join(shown)


def redact_target(target: str) -> str:
    """A request target (``/path?query``) with its query string redacted (:func:`redact_query`)."""
    path, has_query, query = target.partition("?")
    return f"{path}?{redact_query(query)}" if has_query else target


class RedactQuery(logging.Filter):
    """A filter on uvicorn's access logger: each record's request target is redacted before it is written.

    uvicorn passes ``(client, method, target, http version, status)`` as the record's arguments; a
    record of another shape is left as it is.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) >= 3 and isinstance(args[2], str) and "?" in args[2]:
            record.args = (*args[:2], redact_target(args[2]), *args[3:])
        return True


def install() -> None:
    """Adds :class:`RedactQuery` to uvicorn's access logger (once)."""
    logger = logging.getLogger(ACCESS_LOGGER)
    if not any(isinstance(existing, RedactQuery) for existing in logger.filters):
        logger.addFilter(RedactQuery())
