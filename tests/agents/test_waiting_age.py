"""Nothing waits unseen over time: every unfinished item has ``waiting_since`` and an age, queues are
oldest first, and ``HITL_SLA`` deadlines make items overdue (marked, counted, ``inbox --overdue``).

The clock is a parameter (``now``; the CLI and the pages read :func:`agents.ages.utc_now`, replaced
here), so ages of a day are tested without waiting a day.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from zoneinfo import ZoneInfo

import pytest
from fastapi.testclient import TestClient
from streamlit.testing.v1 import AppTest

from agents import ages, lifecycle, runtime
from agents.api.app import create_app
from agents.errors import InputError
from agents.settings import resolve_settings
from dashboard.settings_view import settings_rows
from tests.conftest import APP_FILE
from tests.factories import start_refund
from tests.templates import copy_into

COUNT = 200
DAY = dt.timedelta(hours=24)
#: Overdue at the chosen clock: the oldest OVERDUE items.
OVERDUE = 73


@pytest.fixture(autouse=True)
def no_deadline_or_zone_from_outside(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("HITL_SLA", "HITL_TIMEZONE"):
        monkeypatch.delenv(name, raising=False)


def _amount(index: int) -> int:
    """Amounts in an order that is not the age order (the old queue sorted by amount)."""
    return 200_000 + (index * 37 % COUNT) * 1_000


def _start_the_cases(store, settings) -> None:
    for index in range(COUNT):
        start_refund(store, settings, f"Q{index:03d}", _amount(index))


@pytest.fixture
def waiting_cases(store) -> list[lifecycle.ThreadStatus]:
    """200 waiting refunds, started in order through the write path; the inbox as read after.

    They are started once per process and copied into the test's database (``tests/templates.py``).
    """
    copy_into(store, "two-hundred-waiting-refunds", _start_the_cases)
    return lifecycle.inbox(store)


def _clock_for(items: list[lifecycle.ThreadStatus], overdue: int) -> dt.datetime:
    """A clock at which exactly the ``overdue`` oldest items are past a 24 h deadline: midway between the
    last of them and the next, 24 h on."""
    last, following = items[overdue - 1].waiting_since, items[overdue].waiting_since
    assert last is not None and following is not None and last < following
    return last + (following - last) / 2 + DAY


def test_every_unfinished_item_has_waiting_since_from_its_head_and_the_inbox_is_oldest_first(waiting_cases):
    assert [item.thread_id for item in waiting_cases] == [f"refund-Q{index:03d}" for index in range(COUNT)]
    sinces = [item.waiting_since for item in waiting_cases]
    assert all(since is not None and since.tzinfo is not None for since in sinces)
    assert sinces == sorted(sinces) and len(set(sinces)) == COUNT
    assert all(item.waiting_since == item.updated_at for item in waiting_cases)


def test_overdue_count_is_exact(waiting_cases):
    now = _clock_for(waiting_cases, OVERDUE)
    late = lifecycle.overdue(waiting_cases, {"refund": 24 * 3600}, now)
    assert [item.thread_id for item in late] == [f"refund-Q{index:03d}" for index in range(OVERDUE)]
    assert lifecycle.overdue(waiting_cases, {"robot": 60}, now) == []  # no deadline for the refund agent


def test_a_finished_thread_has_no_waiting_since(store, settings):
    start_refund(store, settings, "S1", 50_000)  # settles automatically
    (status,) = lifecycle.thread_statuses(store)
    assert status.status == "done" and status.waiting_since is None
    assert status.to_json()["waiting_since"] is None


def test_an_edited_case_waits_since_its_edit(store, settings):
    first = start_refund(store, settings, "E1")
    before = lifecycle.thread_status(store, "refund-E1").waiting_since
    config = {"configurable": {"thread_id": "refund-E1"}}
    runtime.graph(store, "refund").update_state(config, {"amount": 200_000}, as_node="assess")
    after = lifecycle.thread_status(store, "refund-E1")
    assert first.status == "waiting" and after.status == "attention"
    assert after.waiting_since is not None and before is not None and after.waiting_since > before


def test_cli_inbox_overdue_lists_only_overdue_items_and_exits_3(waiting_cases, run_cli, monkeypatch):
    monkeypatch.setenv("HITL_SLA", "refund=24h,lecture=48h")
    monkeypatch.setattr(ages, "utc_now", lambda: _clock_for(waiting_cases, OVERDUE))
    result = run_cli("inbox", "--overdue", "--json")
    assert result.code == 3, result.err
    items = json.loads(result.out)
    assert [item["thread_id"] for item in items] == [f"refund-Q{index:03d}" for index in range(OVERDUE)]
    assert all(item["overdue"] is True for item in items)
    since = dt.datetime.fromisoformat(items[0]["waiting_since"])
    assert since == waiting_cases[0].waiting_since and since.utcoffset() == dt.timedelta(0)
    everything = json.loads(run_cli("inbox", "--json").out)
    assert sum(item["overdue"] for item in everything) == OVERDUE and len(everything) == COUNT
    text = run_cli("inbox", "--overdue")
    assert text.code == 3
    assert text.out.splitlines()[0].startswith("refund-Q000\trefund\twaiting\tanswer\twaiting 1 d 0 h (overdue)\t")
    korean = run_cli("inbox", "--overdue", "--lang", "ko").out.splitlines()[0]
    assert "\t1일 0시간째 대기 (기한 지남)\t" in korean


def test_cli_inbox_overdue_exits_0_when_nothing_is_overdue(store, settings, run_cli, monkeypatch):
    start_refund(store, settings, "N1")
    monkeypatch.setenv("HITL_SLA", "refund=24h")
    result = run_cli("inbox", "--overdue")
    assert (result.code, result.out.strip()) == (0, "nothing is overdue")
    assert json.loads(run_cli("inbox", "--json").out)[0]["overdue"] is False
    monkeypatch.setattr(ages, "utc_now", lambda: dt.datetime.now(dt.UTC) + dt.timedelta(days=2))
    assert run_cli("inbox", "--overdue").code == 3
    monkeypatch.delenv("HITL_SLA")  # no deadline: never overdue, however old
    assert run_cli("inbox", "--overdue").code == 0


@pytest.mark.parametrize(
    ("seconds", "english", "korean"),
    [
        (0, "waiting 0 s", "0초째 대기"),
        (59.9, "waiting 59 s", "59초째 대기"),
        (12 * 60 + 5, "waiting 12 min", "12분째 대기"),
        (3 * 3600 + 20 * 60 + 59, "waiting 3 h 20 min", "3시간 20분째 대기"),
        (2 * 86_400 + 5 * 3600, "waiting 2 d 5 h", "2일 5시간째 대기"),
    ],
)
def test_age_in_words(seconds, english, korean):
    now = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)
    words = ages.age_text(now - dt.timedelta(seconds=seconds), now)
    assert (words.render("en"), words.render("ko")) == (english, korean)


def test_a_clock_behind_the_save_file_shows_no_negative_age():
    now = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)
    assert ages.age_text(now + dt.timedelta(minutes=5), now).render("en") == "waiting 0 s"
    assert not ages.is_overdue(now + dt.timedelta(minutes=5), 1, now)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("refund=24h,lecture=48h", (("refund", 86_400), ("lecture", 172_800))),
        (" refund = 90m ", (("refund", 5_400),)),
        ("robot=30s,refund=2d", (("robot", 30), ("refund", 172_800))),
        ("", ()),
    ],
)
def test_sla_setting_is_parsed(value, expected):
    settings = resolve_settings(
        {"robot": lambda _: None, "refund": lambda _: None, "lecture": lambda _: None},
        environ={"HITL_SLA": value},
        secrets={},
    )
    assert settings.sla == expected


@pytest.mark.parametrize(
    "value",
    [
        "refund",
        "refund=24",
        "refund=0h",
        "refund=-1h",
        "refund=1.5h",
        "refund=24w",
        "nobody=1h",
        "refund=1h,refund=2h",
        "refund=1h,,",
        "=1h",
        "refund=１h",
    ],
)
def test_a_bad_sla_is_refused_at_start_naming_the_setting(value):
    with pytest.raises(InputError) as refused:
        runtime.load_settings(environ={"HITL_SLA": value}, secrets={})
    assert refused.value.field == "HITL_SLA"


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "refund: a deadline is at most 9,999,999 of its unit; got '99999999999999d'"),
        ("ko", "refund: 기한은 단위마다 최대 9,999,999입니다. 입력값: '99999999999999d'"),
    ],
)
def test_a_deadline_of_too_many_digits_is_refused_as_too_long_not_as_no_whole_number(run_cli, monkeypatch, lang, said):
    monkeypatch.setenv("HITL_SLA", "refund=99999999999999d")
    refused = run_cli("--lang", lang, "inbox")
    assert refused.code == 2 and said in refused.err, refused.err
    assert runtime.load_settings(environ={"HITL_SLA": "refund=9999999d"}, secrets={}).deadlines == {
        "refund": 9_999_999 * 86400
    }


@pytest.mark.parametrize("value", ["Mars/Olympus", "../etc/passwd", "/etc/localtime", "Asia/Seoul\x00"])
def test_a_bad_time_zone_is_refused_at_start_naming_the_setting(value):
    with pytest.raises(InputError) as refused:
        runtime.load_settings(environ={"HITL_TIMEZONE": value}, secrets={})
    assert refused.value.field == "HITL_TIMEZONE"


def test_cli_threads_shows_times_in_the_zone_and_json_in_utc(store, settings, run_cli, monkeypatch):
    start_refund(store, settings, "Z1")
    monkeypatch.setenv("HITL_TIMEZONE", "Asia/Seoul")
    (status,) = lifecycle.thread_statuses(store)
    shown = status.updated_at.astimezone(ZoneInfo("Asia/Seoul")).strftime("%Y-%m-%d %H:%M:%S KST")
    assert f"\t{shown}\t" in run_cli("threads").out
    (item,) = json.loads(run_cli("threads", "--json").out)
    assert item["updated_at"].endswith("+00:00") and item["waiting_since"].endswith("+00:00")


def test_a_time_zone_is_an_iana_name():
    settings = runtime.load_settings(environ={"HITL_TIMEZONE": "Asia/Seoul"}, secrets={})
    moment = dt.datetime(2026, 12, 1, 0, 30, tzinfo=dt.UTC)
    assert moment.astimezone(settings.zone).strftime("%Y-%m-%d %H:%M") == "2026-12-01 09:30"


def _page(path: str, lang: str) -> AppTest:
    at = AppTest.from_file(str(APP_FILE), default_timeout=60)
    at.query_params["lang"] = lang
    at.run()
    if path != "app_pages/home.py":
        at.switch_page(path)
        at.run()
    assert not at.exception, at.exception
    return at


@pytest.mark.parametrize(
    ("lang", "oldest_age", "fresh_age", "overdue_count"),
    [
        ("en", "waiting 1 d 0 h · overdue", "waiting 23 h 59 min", f"{OVERDUE} overdue"),
        ("ko", "1일 0시간째 대기 · 기한 지남", "23시간 59분째 대기", f"{OVERDUE}건 기한 지남"),
    ],
)
def test_pages_show_age_overdue_and_oldest_first(
    waiting_cases, monkeypatch, lang, oldest_age, fresh_age, overdue_count
):
    monkeypatch.setenv("HITL_SLA", "refund=24h")
    monkeypatch.setenv("HITL_TIMEZONE", "Asia/Seoul")
    monkeypatch.setattr(ages, "utc_now", lambda: _clock_for(waiting_cases, OVERDUE))
    home = _page("app_pages/home.py", lang)
    assert any(overdue_count in caption.value for caption in home.caption)
    inbox = home.dataframe[0].value
    assert list(inbox.iloc[:3, 1]) == ["refund-Q000", "refund-Q001", "refund-Q002"]
    assert oldest_age in set(inbox.iloc[:, 2])  # the status cell holds the age
    threads = home.dataframe[1].value  # the refund card's newest threads: thread, status, last update, ...
    newest = waiting_cases[-1]
    assert threads.iloc[0, 0] == newest.thread_id
    assert threads.iloc[0, 2] == newest.waiting_since.astimezone(ZoneInfo("Asia/Seoul")).strftime(
        "%Y-%m-%d %H:%M:%S KST"
    )
    refund = _page("app_pages/refund.py", lang)
    queue = refund.dataframe[0].value
    assert list(queue.iloc[:, 0]) == [f"Q{index:03d}" for index in range(25)]  # the first page, oldest first
    assert queue.iloc[0, 2] == oldest_age
    monkeypatch.setattr(ages, "utc_now", lambda: _clock_for(waiting_cases, 1) - dt.timedelta(minutes=1))
    early = _page("app_pages/refund.py", lang).dataframe[0].value
    assert early.iloc[0, 2] == fresh_age  # under the deadline: no mark


def test_the_settings_view_names_the_deadlines_and_the_zone():
    sources = {"HITL_SLA": "refund=24h,lecture=90m", "HITL_TIMEZONE": "Asia/Seoul"}
    settings = runtime.load_settings(environ=sources, secrets={})
    rows = dict(settings_rows(settings))
    assert rows["deadlines (HITL_SLA)"] == "refund=1 d 0 h, lecture=1 h 30 min"
    assert rows["time zone (HITL_TIMEZONE)"] == "Asia/Seoul"
    assert dict(settings_rows(runtime.load_settings(environ={}, secrets={})))["deadlines (HITL_SLA)"] == (
        "none: nothing is overdue"
    )


def test_the_api_threads_carry_waiting_since_and_overdue(store, settings, monkeypatch):
    settings = dataclasses.replace(settings, sla=(("refund", 24 * 3600),))
    start_refund(store, settings, "API1")
    start_refund(store, settings, "API2", 50_000)  # done: no wait
    (waiting,) = lifecycle.inbox(store)
    monkeypatch.setattr(ages, "utc_now", lambda: waiting.waiting_since + DAY + dt.timedelta(seconds=1))
    with TestClient(create_app(store, settings), base_url="http://localhost") as client:
        found = {t["thread_id"]: t["lifecycle"] for t in client.post("/threads/search", json={}).json()}
        one = client.get("/threads/refund-API1").json()["lifecycle"]
    assert found["refund-API1"]["overdue"] is True and one["overdue"] is True
    assert dt.datetime.fromisoformat(one["waiting_since"]) == waiting.waiting_since
    assert found["refund-API2"]["waiting_since"] is None and found["refund-API2"]["overdue"] is False
