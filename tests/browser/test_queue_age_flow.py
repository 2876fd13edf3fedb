"""Every queue shows how long each item has waited and marks it overdue, in a real browser, in English
and in Korean: the home inbox (and its count), the navigation, the refund queue, the robot's and the
lecture's queues of other threads, and the explorer's thread picker.

The items are made through the CLI (the project's write path) just before the server starts. The
server's clock is the one the pages read, ``agents.ages.utc_now``, set for the server's process by
its launcher (``tests/browser/fixed_clock.py``) to a fixed moment 24 h and one minute after the newest
item started waiting, as the AppTest tests replace it in theirs: every item is then a day old and past
its 24 h deadline, with no waiting in the test.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from tests.browser.conftest import table_with, wait_for_app
from tests.conftest import PROJECT_ROOT
from tests.fresh_process import run_command
from tests.serving import dashboard_env, free_port, local_url, running_streamlit

DRAWN = 30_000

WORDS = {
    "en": {
        "age": "waiting 1 d 0 h · overdue",
        "count": "5 overdue",
        "home_nav": "Home · 5 overdue",
        "refund_nav": "Refund agent · 1 overdue",
        "robot_queue": "Other robot threads that need a human (1)",
        "lecture_queue": "Other lecture threads that need a human (1)",
        "picker": "Thread",
    },
    "ko": {
        "age": "1일 0시간째 대기 · 기한 지남",
        "count": "5건 기한 지남",
        "home_nav": "홈 · 5건 기한 지남",
        "refund_nav": "환불 에이전트 · 1건 기한 지남",
        "robot_queue": "사람이 봐야 할 다른 로봇 스레드 (1)",
        "lecture_queue": "사람이 봐야 할 다른 강의 스레드 (1)",
        "picker": "스레드",
    },
}


def _cli(env: dict[str, str], db: Path, *args: str) -> dict:
    done = run_command(["--db", str(db), *args, "--json"], PROJECT_ROOT, env, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def late_dashboard(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Five waiting items (a refund, two robot threads, two lecture threads), a
    24 h deadline for each agent, and the server's clock a day after the newest began waiting."""
    db = tmp_path_factory.mktemp("late") / "dashboard.sqlite"
    env = dashboard_env(db, latency="0", HITL_SLA="refund=24h,robot=24h,lecture=24h", HITL_TIMEZONE="UTC")
    env.pop("HITL_ROLES_FILE", None)
    _cli(env, db, "run", "refund", "--case", "OLD1", "--customer", "kim", "--amount", "500000", "--reason", "r")
    _cli(env, db, "run", "robot", "--thread", "robot-a")
    _cli(env, db, "run", "robot", "--thread", "robot-b")
    flags = [
        part for name, value in DEFAULT_LECTURE_INPUT.items() for part in (f"--{name.replace('_', '-')}", str(value))
    ]
    lectures = [_cli(env, db, "run", "lecture", *flags)["thread_id"] for _ in range(2)]
    inbox = _cli(env, db, "inbox")
    assert len(inbox) == 5 and all(item["overdue"] is False for item in inbox)
    newest = max(dt.datetime.fromisoformat(item["waiting_since"]) for item in inbox)
    oldest = min(dt.datetime.fromisoformat(item["waiting_since"]) for item in inbox)
    assert newest - oldest < dt.timedelta(minutes=59)  # every age reads "1 d 0 h"
    env["FIXED_CLOCK_AT"] = (newest + dt.timedelta(hours=24, minutes=1)).isoformat()
    port = free_port()
    with running_streamlit(env, port, module="tests.browser.fixed_clock"):
        yield f"{local_url(port)}|{lectures[0]}"


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_every_queue_shows_age_and_overdue(page: Page, late_dashboard: str, lang: str):
    url, lecture_shown = late_dashboard.split("|")
    words = WORDS[lang]
    main = page.get_by_test_id("stMain")

    page.goto(f"{url}/?lang={lang}")
    wait_for_app(page)
    expect(table_with(page, "refund-OLD1")).to_contain_text(words["age"], timeout=DRAWN)
    expect(main.get_by_text(words["count"], exact=False).first).to_be_visible()
    nav = page.get_by_test_id("stSidebarNav")
    expect(nav).to_contain_text(words["refund_nav"])
    expect(nav).to_contain_text(words["home_nav"])

    page.goto(f"{url}/refund?lang={lang}&thread=refund-OLD1")
    wait_for_app(page)
    expect(table_with(page, "OLD1")).to_contain_text(words["age"], timeout=DRAWN)

    page.goto(f"{url}/robot?lang={lang}&thread=robot-a")
    wait_for_app(page)
    main.get_by_text(words["robot_queue"]).click()
    expect(table_with(page, "robot-b")).to_contain_text(words["age"], timeout=DRAWN)

    page.goto(f"{url}/lecture?lang={lang}&thread={lecture_shown}")
    wait_for_app(page)
    main.get_by_text(words["lecture_queue"]).click()
    expect(table_with(page, "lecture")).to_contain_text(words["age"], timeout=DRAWN)

    page.goto(f"{url}/explorer?lang={lang}&thread=refund-OLD1")
    wait_for_app(page)
    picker = main.get_by_role("combobox", name=words["picker"], exact=True)
    expect(picker).to_have_value(f"refund-OLD1 · {words['age']}")  # the age says it waits: once
