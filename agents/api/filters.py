"""The ``metadata`` and ``values`` filters of a search or a history, matched as LangGraph's server matches them.

LangGraph's server keeps a thread's metadata and values as ``jsonb`` and finds them with PostgreSQL's
containment, ``@>`` (its in-memory ``langgraph dev`` copies it in ``is_jsonb_contained``): a filter
matches what contains it, so ``{"user": {"id": "u1"}}`` finds ``{"user": {"id": "u1", "name": "x"},
"tag": "demo"}``. :func:`contains` is that operator on decoded JSON. A filter is checked first
(:func:`checked`): its nesting and size are bounded, so a match costs at most its size times the
size of what it is matched with.
"""

from __future__ import annotations

from typing import Any

from agents.validation import check_json_value

#: The largest filter read (as JSON): the metadata a thread is created with is at most this large too.
FILTER_MAX_BYTES = 16 * 1024


def checked(wanted: dict[str, Any] | None, field: str) -> dict[str, Any]:
    """The filter, ``{}`` for none; one nested too deep or too large is refused (422 naming ``field``)."""
    if not wanted:
        return {}
    result: dict[str, Any] = check_json_value(wanted, field, max_bytes=FILTER_MAX_BYTES)
    return result


def contains(found: Any, wanted: Any) -> bool:
    """Whether JSON value ``found`` contains ``wanted``, as PostgreSQL's ``found @> wanted``.

    An object contains an object that has only keys it has, each with a value its own value for the key
    contains; an array contains an array each of whose elements one of its elements contains (order
    and repeats do not count: ``["a", "b"]`` contains ``["b"]`` and ``["b", "b"]``); any other value
    contains only an equal value of the same JSON type (``1`` and ``1.0`` are equal; ``true`` is not ``1``,
    and ``"a"`` is not ``["a"]``).
    """
    if isinstance(wanted, dict):
        return isinstance(found, dict) and all(
            key in found and contains(found[key], value) for key, value in wanted.items()
        )
    if isinstance(wanted, list):
        return isinstance(found, list) and all(any(contains(item, value) for item in found) for value in wanted)
    if isinstance(wanted, bool) or isinstance(found, bool):
        return isinstance(wanted, bool) and isinstance(found, bool) and wanted == found
    if isinstance(wanted, int | float):
        return isinstance(found, int | float) and found == wanted
    return type(found) is type(wanted) and bool(found == wanted)
