"""A mail that a real SMTP server (aiosmtpd) takes for some recipients and refuses for others: it goes once, to
those it took, and is never sent again (that would mail them twice); whom the server refused is not lost.
``notify --once`` says so and exits 3 (cron sees it), the deliverer's log warns, and ``notify --status`` (text
and JSON) names each refused address with what the server answered, in English and Korean, on SQLite and
PostgreSQL, until an admin dismisses the mail (``notify --dismiss``), which leaves it counted as sent.
"""

from __future__ import annotations

import json
import logging

import pytest

from agents.notify import outbox
from agents.notify.deliverer import Deliverer
from tests.agents.notify.conftest import mailing
from tests.factories import start_refund
from tests.notify_receivers import picky_server

pytestmark = pytest.mark.usefixtures("backend")

TAKEN, GONE = "ops@example.com", "gone@example.com"
ANSWER = f"550 5.1.1 mailbox {GONE} unknown"


@pytest.mark.parametrize(
    ("lang", "counts", "said_once", "said_status"),
    [
        (
            "en",
            "recorded 1, sent 1, failed 0",
            "1 sent with some recipients refused by the mail server",
            f"took the mail for {TAKEN} but refused {GONE} ({ANSWER})",
        ),
        (
            "ko",
            "기록 1, 전송 1, 실패 0",
            "1건은 보냈지만 메일 서버가 받는 사람 일부를 거부했습니다",
            f"{TAKEN}에게 갈 메일은 받았지만 다음 받는 사람은 거부했습니다: {GONE} ({ANSWER})",
        ),
    ],
    ids=["en", "ko"],
)
def test_a_mail_refused_for_one_recipient_goes_once_to_the_others_and_status_names_whom(
    store, settings, run_cli, monkeypatch, lang, counts, said_once, said_status
):
    start_refund(store, settings, "P1", 700_000)
    with picky_server(GONE) as (box, port):
        monkeypatch.setenv("HITL_NOTIFY_SMTP", f"smtp://127.0.0.1:{port}")
        monkeypatch.setenv("HITL_NOTIFY_FROM", "hitl@example.com")
        monkeypatch.setenv("HITL_NOTIFY_TO", f"{TAKEN}, {GONE}")
        once = run_cli("--lang", lang, "notify", "--once")
        [(to, _mail)] = box.wait_for(1)
        again = run_cli("--lang", lang, "notify", "--once")
        assert len(box.mails) == 1  # sent once: the second round sent nothing again
    assert to == [TAKEN]
    assert once.code == 3 and once.out.startswith(counts) and said_once in once.out  # cron sees it
    assert again.code == 0 and again.out.startswith(counts.replace("1", "0"))

    status = run_cli("--lang", lang, "notify", "--status")
    assert status.code == 0  # nothing is failing: the mail was sent, and is not tried again
    assert said_status in status.out and f"SMTP {'server' if lang == 'en' else '서버'} 127.0.0.1:{port}" in status.out
    assert "P1" in status.out and "(email)" in status.out

    shown = json.loads(run_cli("--lang", lang, "notify", "--status", "--json").out)
    assert (shown["delivered"], shown["failing"]) == (1, [])
    [refused] = shown["refused"]
    assert refused["channel"] == "email" and said_status in refused["error"] and refused["delivered_at"]


def test_the_deliverer_counts_the_row_as_sent_keeps_whom_it_refused_and_logs_a_warning(
    store, settings, caplog: pytest.LogCaptureFixture
):
    start_refund(store, settings, "P2", 700_000)
    with picky_server(GONE) as (box, port), caplog.at_level(logging.WARNING, logger="agents.notify.deliverer"):
        report = Deliverer(store, mailing(settings, port, to=f"{TAKEN}, {GONE}")).run_once()
        [(to, _mail)] = box.wait_for(1)
    assert to == [TAKEN]
    assert (report.sent, report.failed, report.refused) == (1, 0, 1)
    found = outbox.status(store)
    assert (found.delivered, found.failing) == (1, [])
    [(event_id, channel, error, _at)] = found.refused
    assert channel == "email" and "refund-P2" in event_id and f"{GONE} ({ANSWER})" in error
    warned = [record.getMessage() for record in caplog.records if record.levelno == logging.WARNING]
    assert any("sent, but" in message and GONE in message for message in warned), warned


def test_a_mail_every_recipient_took_leaves_nothing_refused(store, settings):
    start_refund(store, settings, "P3", 700_000)
    with picky_server() as (box, port):
        report = Deliverer(store, mailing(settings, port, to=f"{TAKEN}, {GONE}")).run_once()
        [(to, _mail)] = box.wait_for(1)
    assert sorted(to) == sorted([TAKEN, GONE])
    assert (report.sent, report.refused) == (1, 0)
    assert outbox.status(store).refused == []


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "its mail that some recipients refused is no longer listed"),
        ("ko", "받는 사람 일부가 거부한 메일을 더는 목록에 보이지 않습니다"),
    ],
    ids=["en", "ko"],
)
def test_a_refused_mail_is_listed_until_dismissed_and_stays_counted_as_sent(
    store, settings, run_cli, monkeypatch, lang, said
):
    start_refund(store, settings, "P4", 700_000)
    with picky_server(GONE) as (box, port):
        assert Deliverer(store, mailing(settings, port, to=f"{TAKEN}, {GONE}")).run_once().refused == 1
        box.wait_for(1)
    [(event_id, _channel, _error, _at)] = outbox.refused(store)

    wrong = run_cli("--lang", lang, "notify", "--dismiss", f"{event_id}x")
    assert wrong.code == 2 and outbox.refused(store) != []  # nothing changed
    dismissed = run_cli("--lang", lang, "notify", "--dismiss", event_id)
    assert dismissed.code == 0 and event_id in dismissed.out and said in dismissed.out
    assert outbox.refused(store) == []
    shown = json.loads(run_cli("notify", "--status", "--json").out)
    assert (shown["delivered"], shown["dismissed"], shown["failing"], shown["refused"]) == (1, 0, [], [])
    assert GONE not in run_cli("notify", "--status").out
    again = run_cli("--lang", lang, "notify", "--dismiss", event_id)
    assert again.code == 2  # nothing is left to dismiss under that id
