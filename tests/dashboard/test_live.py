"""Live pages: the check that decides whether an open page is drawn again."""

from __future__ import annotations

import pytest

from agents import runs
from agents.runtime import open_store
from dashboard import live
from tests.factories import pause_robot

pytestmark = pytest.mark.usefixtures("backend")


def test_the_live_token_moves_when_another_connection_commits(store, settings, db_location):
    before = store.live_token()
    assert before is not None
    other = open_store(db_location)  # another process's handle on the same database
    try:
        pause_robot(other, settings, "r1")
    finally:
        other.close()
    assert store.live_token() != before


def test_a_page_is_drawn_again_only_after_a_commit(store, settings, db_location):
    state: dict[str, object] = {}
    reruns: list[int] = []
    pause_robot(store, settings, "r1")
    live.mark_drawn(store, state)
    if store.backend == "sqlite":  # PostgreSQL's snapshot is the whole server's: other tests move it too
        assert not live.redraw_if_changed(store, state, lambda: reruns.append(1))
        assert reruns == []
    other = open_store(db_location)
    try:
        runs.resume_thread(other, settings, "r1", "no")  # another approver's tab, or the CLI
    finally:
        other.close()
    assert live.redraw_if_changed(store, state, lambda: reruns.append(1))
    assert reruns == [1]
    live.mark_drawn(store, state)  # the redraw records what it drew under
    if store.backend == "sqlite":
        assert not live.redraw_if_changed(store, state, lambda: reruns.append(1))
        assert reruns == [1]


@pytest.mark.parametrize(("drawn", "now", "behind"), [(1, 1, False), (1, 2, True), (None, 2, False), (1, None, False)])
def test_an_unknown_token_never_redraws(drawn, now, behind):
    assert live.page_is_behind(drawn, now) is behind


def test_the_frame_records_the_token_each_page_is_drawn_under(app, store, settings, db_location):
    at = app("app_pages/home.py")
    assert not at.exception
    drawn = at.session_state[live.DRAWN_KEY]
    assert drawn is not None
    at.run()  # nothing committed since: drawn under the same token (a token is its own connection's)
    assert at.session_state[live.DRAWN_KEY] == drawn or store.backend == "postgres"  # its snapshot moves on its own
    other = open_store(db_location)
    try:
        pause_robot(other, settings, "r1")
    finally:
        other.close()
    at.run()
    assert at.session_state[live.DRAWN_KEY] != drawn  # a redraw records what it drew under
    assert any("r1" in str(frame.value) for frame in at.dataframe)


def test_a_live_part_reads_its_rows_again_only_after_a_commit(store, settings, db_location):
    state: dict[str, object] = {}
    reads: list[int] = []

    def load() -> list[int]:
        reads.append(1)
        return [len(reads)]

    live.mark_drawn(store, state)
    assert live.rows("queue", load, store=store, state=state) == [1]
    if store.backend == "sqlite":  # PostgreSQL's snapshot is the whole server's: other tests move it too
        assert live.rows("queue", load, store=store, state=state) == [1]  # nothing new: the kept rows
        assert reads == [1]
    other = open_store(db_location)
    try:
        pause_robot(other, settings, "r1")  # another process commits
    finally:
        other.close()
    assert live.rows("queue", load, store=store, state=state) == [len(reads)] and len(reads) >= 2
    read = len(reads)
    live.mark_drawn(store, state)  # the page is drawn again: its parts read afresh (another thread shown)
    assert live.rows("queue", load, store=store, state=state) == [read + 1]


def test_a_store_that_cannot_tell_reads_the_rows_every_time(store):
    class Blind:
        def live_token(self) -> None:
            return None

    state: dict[str, object] = {}
    reads: list[int] = []
    for _ in range(3):
        live.rows("queue", lambda: reads.append(1), store=Blind(), state=state)  # type: ignore[arg-type]
    assert reads == [1, 1, 1]


def test_a_page_with_live_parts_is_never_rerun_whole_by_the_frame(store, settings, db_location):
    state: dict[str, object] = {}
    reruns: list[int] = []
    live.mark_drawn(store, state)
    state[live.LIVE_PAGE_KEY] = True  # the page's run drew a live part
    other = open_store(db_location)
    try:
        pause_robot(other, settings, "r1")
    finally:
        other.close()
    assert not live.redraw_if_changed(store, state, lambda: reruns.append(1))
    assert reruns == []
    live.mark_drawn(store, state)  # the next page (the explorer) may have none: the frame follows it again
    assert live.LIVE_PAGE_KEY not in state


@pytest.mark.parametrize(("page", "live_parts"), [("app_pages/home.py", True), ("app_pages/explorer.py", False)])
def test_the_queue_pages_draw_live_parts_and_the_explorer_none(app, store, settings, page, live_parts):
    pause_robot(store, settings, "r1")
    at = app(page)
    assert not at.exception
    assert bool(at.session_state[live.LIVE_PAGE_KEY] if live.LIVE_PAGE_KEY in at.session_state else False) is live_parts
