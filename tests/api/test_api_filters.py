"""The ``metadata`` and ``values`` filters match as PostgreSQL's ``@>``, the containment LangGraph's server uses."""

from __future__ import annotations

from typing import Any

import pytest

from agents.api.filters import FILTER_MAX_BYTES, checked, contains
from agents.errors import InputError
from agents.validation import JSON_MAX_DEPTH

FOUND = {"user": {"id": "u1", "name": "x"}, "tag": "demo", "tags": ["a", "b"], "n": 1, "on": True, "none": None}


@pytest.mark.parametrize(
    "wanted",
    [
        {},
        {"tag": "demo"},
        {"user": {"id": "u1"}},
        {"user": {}},
        {"user": {"id": "u1"}, "tag": "demo"},
        {"tags": ["b"]},
        {"tags": ["b", "a", "b"]},
        {"tags": []},
        {"n": 1.0},
        {"on": True},
        {"none": None},
    ],
)
def test_a_filter_finds_what_contains_it(wanted: dict[str, Any]) -> None:
    assert contains(FOUND, wanted)


@pytest.mark.parametrize(
    "wanted",
    [
        {"tag": "other"},
        {"missing": None},
        {"user": {"id": "u2"}},
        {"user": {"id": "u1", "role": "admin"}},
        {"user": "u1"},
        {"tags": ["c"]},
        {"tags": "a"},
        {"tags": {"a": 1}},
        {"n": True},
        {"on": 1},
        {"n": "1"},
        {"none": False},
    ],
)
def test_a_filter_leaves_out_what_does_not_contain_it(wanted: dict[str, Any]) -> None:
    assert not contains(FOUND, wanted)


def test_nested_lists_and_objects_are_contained_element_by_element() -> None:
    messages = {"messages": [{"type": "human", "content": "hi", "id": "1"}, {"type": "ai", "content": "ok"}]}
    assert contains(messages, {"messages": [{"type": "ai"}]})
    assert contains(messages, {"messages": [{"type": "ai"}, {"type": "human", "content": "hi"}]})
    assert not contains(messages, {"messages": [{"type": "tool"}]})
    assert not contains(None, {"a": 1})  # a thread that has not run has no values


def test_a_filter_too_deep_or_too_large_is_refused_naming_its_field() -> None:
    deep: dict[str, Any] = {}
    for _ in range(JSON_MAX_DEPTH + 1):
        deep = {"a": deep}
    with pytest.raises(InputError) as too_deep:
        checked(deep, "values")
    assert too_deep.value.field == "values"
    with pytest.raises(InputError) as too_large:
        checked({"a": "x" * FILTER_MAX_BYTES}, "metadata")
    assert too_large.value.field == "metadata"
    assert checked(None, "metadata") == {} and checked({"a": 1}, "metadata") == {"a": 1}
