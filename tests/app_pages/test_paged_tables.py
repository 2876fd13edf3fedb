"""Paged, searchable tables on the pages: a page of rows, the search, the link column, and fresh rows."""

from __future__ import annotations

from agents import readmodel, runs
from agents.runtime import open_store
from tests.factories import answer_robot, pause_robot, start_refund

ROBOT_TABLE = "home-threads-robot"


def _thread_ids(at, column="thread"):
    return [value for frame in at.dataframe for value in (frame.value[column] if column in frame.value else [])]


def test_a_long_list_shows_one_page_and_pages_through_the_rest(app, store, settings):
    for number in range(60):
        pause_robot(store, settings, f"r-{number:02d}")
    at = app()
    # Home reads the first 50 of each list until every row is asked for; then the table pages all 60.
    assert any("The oldest 50 of 60 are shown." in c.value for c in at.caption)
    for key in ("home-inbox:every-button", f"{ROBOT_TABLE}:every-button"):
        at = at.button(key=key).click().run()
    robot_ids = [tid for tid in _thread_ids(at) if tid.startswith("r-")]
    # The inbox and the robot's threads table each show 25 of the 60, newest first in the threads table.
    assert len(robot_ids) == 50 and "r-59" in robot_ids
    assert any("Rows 1–25 of 60" in c.value for c in at.caption)
    at.number_input(key=f"{ROBOT_TABLE}:page").set_value(3).run()
    assert not at.exception
    assert any("Rows 51–60 of 60" in c.value for c in at.caption)
    assert [tid for tid in _thread_ids(at) if tid in {f"r-{n:02d}" for n in range(10)}][-10:] == [
        f"r-{n:02d}" for n in range(9, -1, -1)
    ]


def test_the_search_narrows_the_rows_and_a_page_past_the_end_is_brought_back(app, store, settings):
    for number in range(30):
        pause_robot(store, settings, f"r-{number:02d}")
    at = app()
    at.number_input(key=f"{ROBOT_TABLE}:page").set_value(2).run()
    at.text_input(key=f"{ROBOT_TABLE}:search").input("R-1").run()  # ignores case
    assert not at.exception
    table = at.dataframe[1].value
    assert sorted(table["thread"]) == [f"r-{n}" for n in range(10, 20)]
    assert any("of 10 matching “R-1” (30 in all)" in c.value for c in at.caption)
    at.text_input(key=f"{ROBOT_TABLE}:search").input("nothing like this").run()
    assert any("No row matches" in c.value for c in at.caption)


def test_the_link_column_opens_the_thread_on_its_agents_page(app, store, settings):
    pause_robot(store, settings, "r:1.ä")
    start_refund(store, settings, "C1")
    at = app()
    links = [link for frame in at.dataframe for link in frame.value.get("open", [])]
    assert "robot?thread=r%3A1.%C3%A4" in links and "refund?thread=refund-C1" in links


def test_a_new_checkpoint_is_seen_on_the_next_rerun(app, store, settings, db_location):
    pause_robot(store, settings, "r-old")
    at = app()
    assert "r-new" not in _thread_ids(at)
    other = open_store(db_location)  # another process writes
    try:
        pause_robot(other, settings, "r-new")
        runs.resume_thread(other, settings, "r-old", "yes")
    finally:
        other.close()
    at.run()
    inbox = at.dataframe[0].value
    assert list(inbox["thread"]) == ["r-new"]
    threads = at.dataframe[1].value
    assert list(threads["thread"]) == ["r-old", "r-new"]  # r-old was answered last
    assert "done · executed" in list(threads["status"])


def test_the_refund_queue_is_searchable_by_customer(app, store, settings):
    start_refund(store, settings, "C1", customer="김철수")
    start_refund(store, settings, "C2", customer="이영희")
    at = app("app_pages/refund.py")
    at.text_input(key="refund-queue:search").input("영희").run()
    assert not at.exception
    queue = at.dataframe[0].value
    assert list(queue["case"]) == ["C2"]


def test_the_save_file_tables_of_a_long_thread_show_a_page_of_decoded_rows(app, store, settings):
    answer_robot(store, settings, "hitl_demo")
    for number in range(30):  # thirty edits: 35 checkpoints
        runs.update_thread(store, settings, "hitl_demo", {"pending_action": f"edit {number}"})
    counts = readmodel.table_counts(store, "hitl_demo")
    at = app("app_pages/robot.py")
    assert not at.exception
    checkpoints, writes = at.dataframe[0].value, at.dataframe[1].value
    assert len(checkpoints) == 25 and len(writes) == 25
    assert counts["checkpoints"] == 35 and counts["writes"] > 25
    assert any(f"Rows 1–25 of {counts['checkpoints']}" in c.value for c in at.caption)
    assert any(f"Rows 1–25 of {counts['writes']}" in c.value for c in at.caption)
    at.number_input(key="savefile-checkpoints-hitl_demo:page").set_value(2).run()
    last_page = at.dataframe[0].value
    assert len(last_page) == counts["checkpoints"] - 25
    assert '"pending_action": "edit 29"' in last_page["state"].iloc[-1]  # the newest checkpoint's decoded state
