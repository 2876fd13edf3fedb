"""The HTTP API through the official SDK against a real ``serve``: a run whose input names a case id that reads
as an existing case's (lower case, fullwidth, Cyrillic) is a 422 naming ``case_id``, that case and its thread,
on the thread it was asked for or a server-made one, and writes no case; items of one input that read alike
are a 422 naming both."""

from __future__ import annotations

import sqlite3

import pytest

from tests.api.conftest import Server, refused


@pytest.fixture(scope="module")
def server(shared_server: Server) -> Server:
    """The worker's shared server (tests/api/conftest.py): this module's cases are ``LK…`` and no other's."""
    return shared_server


def case_input(case: str, **more: object) -> dict[str, object]:
    return {"case_id": case, "customer": "홍길동", "reason": "파손", **({"amount": 500_000} | more)}


def claimed(server: Server, *case_ids: str) -> list[str]:
    with sqlite3.connect(server.db) as conn:
        marks = ",".join("?" * len(case_ids))
        rows = conn.execute(f"SELECT case_id FROM refund_cases WHERE case_id IN ({marks})", case_ids).fetchall()
    return sorted(row[0] for row in rows)


def test_a_run_for_a_lookalike_case_id_is_refused_naming_the_case_and_its_thread(server: Server, client) -> None:
    client.threads.create(thread_id="refund-LK1")
    assert client.runs.wait("refund-LK1", "refund", input=case_input("LK1"))["__interrupt__"]
    for lookalike in ("lk1", "ＬＫ1", "LК1"):  # the last with a Cyrillic К
        made = client.threads.create()["thread_id"]  # a server-made id, as the SDK's clients use
        answer = refused(client.runs.wait, made, "refund", input=case_input(lookalike))
        assert answer.status_code == 422 and answer.json()["field"] == "case_id", answer.text
        detail = answer.json()["detail"]
        assert f"case {lookalike!r} reads as case 'LK1'" in detail and "'refund-LK1'" in detail, detail
        assert client.threads.get_state(made)["values"] in ({}, None, [])  # nothing ran on it
    assert claimed(server, "LK1", "lk1", "ＬＫ1", "LК1") == ["LK1"]


def test_items_of_one_input_that_read_alike_are_refused_naming_both(server: Server, client) -> None:
    client.threads.create(thread_id="refund-LK2")
    items = [{"item": "A", "amount": 300_000}, {"item": "a", "amount": 200_000}]
    answer = refused(client.runs.wait, "refund-LK2", "refund", input=case_input("LK2", amount=None, items=items))
    assert answer.status_code == 422 and answer.json()["field"] == "items", answer.text
    assert "items 'A' and 'a' read as one item" in answer.json()["detail"]
    assert claimed(server, "LK2") == []
