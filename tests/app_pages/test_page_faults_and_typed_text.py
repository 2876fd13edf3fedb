"""Faults and typed text on the pages: each is a message on the page, never a traceback, and changes nothing.

A database another process keeps locked, a damaged page of the file, a step that raises while a run
starts, and a search typed as Markdown.
"""

from __future__ import annotations

import sqlite3

import pytest

import agents.refund.graph as refund_graph
import agents.robot.graph as robot_graph
from agents import lifecycle, readmodel
from agents.lecture import research
from tests.factories import pause_robot


def _button(at, *, key: str | None = None, label: str | None = None):
    return next(b for b in [*at.button, *at.sidebar.button] if b.key == key or b.label == label)


def _answer_yes(at) -> None:
    _button(at, key="robot-yes").click().run()


def _delete(at) -> None:
    at.sidebar.text_input(key="delete-confirm-hitl_demo").input("hitl_demo")
    _button(at, label="Delete thread").click().run()


def _request_refund(at) -> None:
    at.text_input(key="refund-new-case").input("C9")
    at.text_input(key="refund-new-customer").input("kim")
    at.text_input(key="refund-new-amount").input("500000")
    at.text_area(key="refund-new-reason").input("broken")
    _button(at, label="Submit request").click().run()


@pytest.mark.parametrize(
    ("page", "act"),
    [("app_pages/robot.py", _answer_yes), ("app_pages/robot.py", _delete), ("app_pages/refund.py", _request_refund)],
    ids=["robot yes", "sidebar delete", "refund request"],
)
def test_a_database_locked_by_another_process_is_a_message_and_nothing_changes(
    app, store, settings, db_path, monkeypatch, page, act
):
    pause_robot(store, settings)
    head = readmodel.head_checkpoint_id(store, "hitl_demo")
    monkeypatch.setenv("HITL_DB_BUSY_TIMEOUT", "0.05")  # the product waits 30 s; the refusal is the same
    at = app(page)
    holder = sqlite3.connect(db_path, isolation_level=None, timeout=1)
    holder.execute("BEGIN IMMEDIATE")
    holder.execute("INSERT INTO hitl_meta (key, value) VALUES ('held', 'by another process')")
    try:
        act(at)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert not at.exception, at.exception[0].message
    assert any("is busy" in error.value for error in at.error), [e.value for e in at.error]
    assert readmodel.head_checkpoint_id(store, "hitl_demo") == head
    assert lifecycle.thread_status(store, "hitl_demo").status == "waiting"
    assert readmodel.head_checkpoint_id(store, "refund-C9") is None


def test_a_damaged_table_in_the_file_is_a_message_on_every_page(app, store, settings, db_path):
    pause_robot(store, settings)
    with store.read() as cursor:
        cursor.execute("SELECT rootpage FROM sqlite_master WHERE name = 'checkpoints'")
        root = cursor.fetchone()[0]
        page_size = cursor.execute("PRAGMA page_size").fetchone()[0]
    store.close()  # the last connection folds the WAL into the file
    with db_path.open("r+b") as file:  # the checkpoints table's first page, overwritten
        file.seek((root - 1) * page_size)
        file.write(b"\xff" * page_size)
    for page in ("app_pages/home.py", "app_pages/robot.py", "app_pages/explorer.py"):
        at = app(page)
        assert not at.exception, (page, at.exception[0].message)
        assert any("is damaged" in error.value for error in at.error), (page, [e.value for e in at.error])


def test_a_step_that_raises_while_a_lecture_starts_is_a_message_and_the_thread_is_shown(app, store, monkeypatch):
    def search_down(self, query, k=3):
        raise RuntimeError("search backend down")

    monkeypatch.setattr(research.CorpusResearch, "search", search_down)
    at = app("app_pages/lecture.py")
    at.text_input(key="lecture-thread-id").input("lec-boom")
    _button(at, label="Plan the lecture").click().run()
    assert not at.exception, at.exception[0].message
    assert any("search backend down" in error.value for error in at.error)
    assert at.query_params["thread"] == "lec-boom"
    assert lifecycle.thread_status(store, "lec-boom").status == "attention"


def test_a_step_that_raises_while_the_robot_starts_over_is_a_message(app, store, monkeypatch):
    def propose_broke(state, config):
        raise RuntimeError("propose broke")

    monkeypatch.setattr(robot_graph, "propose", propose_broke)
    at = app("app_pages/robot.py")
    _button(at, label="Start over").click().run()
    assert not at.exception, at.exception[0].message
    assert any("propose broke" in error.value for error in at.error)
    assert lifecycle.thread_status(store, "hitl_demo").status == "attention"


def test_a_step_that_raises_while_a_refund_is_requested_is_a_message_and_the_case_is_shown(app, store, monkeypatch):
    def make_assess(threshold, policy, store=None):
        def assess(state, config):
            raise RuntimeError("assess broke")

        return assess

    monkeypatch.setattr(refund_graph, "make_assess", make_assess)
    at = app("app_pages/refund.py")
    _request_refund(at)
    assert not at.exception, at.exception[0].message
    assert any("assess broke" in error.value for error in at.error)
    assert at.query_params["thread"] == "refund-C9"
    assert lifecycle.thread_status(store, "refund-C9").status == "attention"


def test_a_search_typed_as_markdown_is_shown_as_text(app, store, settings):
    pause_robot(store, settings)
    at = app()
    box = next(x for x in at.text_input if x.key.endswith("home-inbox:search"))
    box.input("![x](http://127.0.0.1:9/x.png)").run()
    captions = [caption.value for caption in at.caption]
    assert any("No row matches" in caption for caption in captions), captions
    assert not any("](http://" in caption for caption in captions), captions
    assert any(r"\!\[x\]" in caption or r"!\[x\]" in caption for caption in captions), captions
