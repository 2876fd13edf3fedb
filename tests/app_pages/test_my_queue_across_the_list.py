"""A person's queue ("My queue") is everything they may decide, wherever it is in the list: home counts it over
every waiting item (not over the page of rows it loads), as the refund queue and ``python -m agents inbox --json``
do, and shows it first; the refund page opens on the first case of it.

The oldest :data:`~dashboard.views.HOME_ROWS` cases here are above Kim's limit (only Park, a senior approver,
may decide them); Kim's cases come after them, beyond home's page of rows."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from agents import runs
from dashboard.views import HOME_ROWS
from tests.conftest import APP_FILE

ROLES_TEXT = """
[users]
"kim@example.com" = { role = "approver", limit_krw = 1_000_000, name = "Kim" }
"park@example.com" = { role = "senior_approver", name = "Park" }
"""
KIM = {"is_logged_in": True, "email": "kim@example.com", "name": "Kim"}
PARK = {"is_logged_in": True, "email": "park@example.com", "name": "Park"}
#: Kim's cases, after the HOME_ROWS larger ones: the larger the newer.
KIMS = [f"refund-S{index}" for index in range(5)]
BIG = [f"refund-B{index:02d}" for index in range(HOME_ROWS)]


@pytest.fixture(autouse=True)
def roles(use_roles: Callable[[str], Path]) -> None:
    use_roles(ROLES_TEXT)


@pytest.fixture
def cases(store, settings) -> None:
    """HOME_ROWS cases of 5,000,000 KRW (Park's alone), oldest first, then Kim's five of 500,000 KRW and more."""
    for thread_id in BIG:
        values = {"case_id": thread_id.removeprefix("refund-"), "customer": "c", "amount": 5_000_000, "reason": "r"}
        runs.start_run(store, settings, "refund", values)
    for index, thread_id in enumerate(KIMS):
        values = {"case_id": thread_id.removeprefix("refund-"), "customer": "c", "reason": "r"}
        runs.start_run(store, settings, "refund", values | {"amount": 500_000 + index * 1_000})


def _open(page: str, user: dict | None = None) -> AppTest:
    test = AppTest.from_file(APP_FILE, default_timeout=60)
    if user is not None:
        test.user = user
    test.run()
    if page != "app_pages/home.py":
        test.switch_page(page).run()
    assert not test.exception, test.exception
    return test


def _captions(test: AppTest) -> list[str]:
    return [caption.value for caption in test.caption]


def _my_queue(test: AppTest) -> str:
    return next(caption for caption in _captions(test) if caption.startswith("My queue:"))


def _inbox_threads(test: AppTest) -> list[str]:
    return list(next(frame.value for frame in test.dataframe if "thread" in frame.value.columns)["thread"])


def _deciders_in_the_cli(run_cli, email: str) -> int:
    """How many items ``python -m agents inbox --json`` names ``email`` a decider of."""
    done = run_cli("inbox", "--json")
    assert done.code == 0, done.err
    return sum(any(person["email"] == email for person in item["deciders"] or ()) for item in json.loads(done.out))


def test_home_counts_every_case_the_person_may_decide_as_the_refund_queue_and_the_cli_do(cases, run_cli):
    home = _open("app_pages/home.py", KIM)
    assert _my_queue(home) == "My queue: 5 you may decide, shown first"  # not 0: none is among the oldest 50
    queue = _open("app_pages/refund.py", KIM)
    assert _my_queue(queue) == "My queue: 5 you may decide, shown first"
    assert _deciders_in_the_cli(run_cli, "kim@example.com") == 5
    park = _open("app_pages/home.py", PARK)
    assert _my_queue(park) == f"My queue: {HOME_ROWS + 5} you may decide, shown first"  # not the page's 50
    assert _deciders_in_the_cli(run_cli, "park@example.com") == HOME_ROWS + 5


def test_home_shows_first_the_persons_own_cases_from_the_whole_list(cases):
    home = _open("app_pages/home.py", KIM)
    threads = _inbox_threads(home)
    assert threads[:5] == KIMS  # Kim's, oldest first, though none is among the oldest HOME_ROWS
    assert threads[5:7] == BIG[:2]  # then the oldest
    total = HOME_ROWS + 5
    assert f"{HOME_ROWS} of {total} are shown: the ones you may decide first, then the oldest." in _captions(home)
    home.segmented_control(key="home-inbox-order").set_value("amount").run()
    assert _inbox_threads(home)[:5] == KIMS[::-1]  # Kim's still first, the largest first
    local = _open("app_pages/home.py")  # local mode: no one's own, the oldest first as before
    assert _inbox_threads(local)[:2] == BIG[:2]
    assert f"The oldest {HOME_ROWS} of {total} are shown." in _captions(local)


def test_the_refund_page_opens_on_the_first_case_of_the_persons_own_queue(cases):
    kim = _open("app_pages/refund.py", KIM)
    assert kim.selectbox(key="refund-case").value == KIMS[0]  # not refund-B00, which Kim may not decide
    assert kim.query_params["thread"] == KIMS[0]
    assert _open("app_pages/refund.py", PARK).selectbox(key="refund-case").value == BIG[0]  # Park's first
    assert _open("app_pages/refund.py").selectbox(key="refund-case").value == BIG[0]  # local mode: as before
    # The queue's order, chosen in this session, says which of Kim's comes first.
    kim.segmented_control(key="refund-queue-order").set_value("amount").run()
    del kim.query_params["thread"]
    kim.switch_page("app_pages/refund.py").run()
    assert kim.selectbox(key="refund-case").value == KIMS[-1]
