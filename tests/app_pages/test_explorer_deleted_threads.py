"""The checkpoint explorer's *Deleted threads*: a thread deleted before it finished, of any agent, is found
there (when, whose, its status then, who, why), opened at the row a deletion's notification links to."""

from __future__ import annotations

import pytest

from agents import runs
from agents.deletion_record import DELETED_PAGE, deleted_link
from dashboard.deleted_view import LINKED_MARK
from dashboard.navigation import pages
from tests.factories import messages, pause_robot, start_refund

PAGE = "app_pages/explorer.py"


def _deleted_table(at):
    return next(frame.value for frame in at.dataframe if "robo-old" in frame.value.to_string())


def test_the_link_of_a_deletion_opens_the_explorers_list_at_that_thread(app, store, settings):
    assert any(entry.path == PAGE and entry.url_path == DELETED_PAGE for entry in pages())
    assert deleted_link("http://localhost:8501", "robo-old") == "http://localhost:8501/explorer?deleted=robo-old"
    start_refund(store, settings, "D1", 300_000)
    pause_robot(store, settings, "robo-old")
    runs.delete_thread(store, "refund-D1", reason="entered twice")
    runs.delete_thread(store, "robo-old")  # the robot needs no reason
    at = app(PAGE)
    at.query_params["deleted"] = "robo-old"
    at.run()
    assert not at.exception, at.exception
    assert "The database has no threads yet." in messages(at)  # no thread is left to pick
    [expander] = [block for block in at.expander if block.label.startswith("Deleted threads")]
    assert expander.label == "Deleted threads (2)" and expander.proto.expanded
    rows = _deleted_table(at).to_dict("records")
    assert [row["thread"] for row in rows] == ["robo-old", "refund-D1"]  # the linked thread first
    assert rows[0]["●"] == LINKED_MARK and rows[1]["●"] == ""
    assert {key: rows[0][key] for key in ("agent", "status when deleted", "deleted by", "why deleted")} == {
        "agent": "Approval robot",
        "status when deleted": "waiting",
        "deleted by": "local operator",
        "why deleted": "",
    }
    assert rows[1]["why deleted"] == "entered twice" and rows[1]["agent"] == "Refund agent"


@pytest.mark.parametrize("linked", [False, True])
def test_the_list_is_folded_unless_linked_and_speaks_korean(app, store, settings, linked):
    pause_robot(store, settings, "robo-old")
    runs.delete_thread(store, "robo-old")
    at = app(PAGE)
    at.query_params["lang"] = "ko"
    if linked:
        at.query_params["deleted"] = "robo-old"
    at.run()
    assert not at.exception, at.exception
    [expander] = [block for block in at.expander if block.label.startswith("삭제된 스레드")]
    assert expander.label == "삭제된 스레드 (1)" and expander.proto.expanded == linked
    [row] = _deleted_table(at).to_dict("records")
    assert (row["에이전트"], row["삭제 당시 상태"], row["삭제한 사람"]) == ("승인 로봇", "대기 중", "로컬 운영자")
