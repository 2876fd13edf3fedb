"""A run's ``metadata`` and ``config.recursion_limit`` on ``python -m agents serve`` and on ``langgraph dev``:
the same SDK calls find the same thing on both (the run's checkpoints carry its metadata; a run past its
step limit fails with ``GraphRecursionError``)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.slow


def _start(client: Any, name: str, thread_id: str, **options: Any) -> tuple[str, dict[str, Any]]:
    """A robot run started as each server takes it (on ours, on thread ``thread_id``), with ``options``."""
    if name == "ours":
        created = client.threads.create(thread_id=thread_id)["thread_id"]
        return created, client.runs.wait(created, "robot", input={}, raise_error=False, **options)
    created = client.threads.create()["thread_id"]
    start = {"messages": [{"role": "human", "content": "Start the task"}]}
    return created, client.runs.wait(created, "robot", input=start, raise_error=False, **options)


def test_a_runs_metadata_is_in_its_checkpoints_on_both_servers(both: dict[str, Any]) -> None:
    found = {}
    for name, client in both.items():
        thread_id, answer = _start(client, name, "compat-run-metadata", metadata={"origin": "compat", "n": 7})
        assert answer["__interrupt__"], name
        history = client.threads.get_history(thread_id, limit=100)
        chosen = client.threads.get_history(thread_id, limit=100, metadata={"origin": "compat", "n": 7})
        found[name] = {
            "every checkpoint carries it": all(entry["metadata"].get("origin") == "compat" for entry in history),
            "the filter finds them all": len(chosen) == len(history) > 0,
        }
    assert (
        found["ours"]
        == found["langgraph dev"]
        == {
            "every checkpoint carries it": True,
            "the filter finds them all": True,
        }
    )


def test_a_run_past_its_recursion_limit_fails_on_both_servers(both: dict[str, Any]) -> None:
    errors = {}
    for name, client in both.items():
        _thread_id, answer = _start(client, name, "compat-recursion-limit", config={"recursion_limit": 1})
        errors[name] = (answer.get("__error__") or {}).get("error")
    assert errors == {"ours": "GraphRecursionError", "langgraph dev": "GraphRecursionError"}
