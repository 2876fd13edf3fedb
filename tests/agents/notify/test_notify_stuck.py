"""A stuck thread (status ``attention``: its run stopped, by a crash or a cancel, or a node raised) is told like
a waiting one: once per stuck head, with why it is stuck and what resolves it (``python -m agents continue
THREAD``, or its page), to whoever may resolve it; its overdue message says it is stuck and why, not that it
waits for a decision. A run is stopped as the API's ``runs.cancel`` stops it (``RunCancelled`` from the run's
event callback), which leaves the head a killed process leaves: steps left to run, no error, no live lease
(``tests/agents/test_stopped_reason.py``). Mails reach a real SMTP server (aiosmtpd); the clock is a parameter
where a deadline must pass (no test waits for one).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from email.message import Message
from typing import Any

import pytest

from agents import lifecycle, runs
from agents.ages import span_text
from agents.errors import RunCancelled
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from agents.notify import outbox
from agents.notify.channels import may_decide
from agents.notify.deliverer import Deliverer
from agents.notify.outbox import Event
from agents.readmodel import checkpoint_time
from agents.roles_file import parse_roles
from tests.agents.notify.conftest import PUBLIC_URL, body, mailing, notifying, subject
from tests.factories import cancel_at, start_refund, stopped_status

THREAD = "lecture-stuck"
ROLES_TEXT = """
[users]
"admin@example.com" = { role = "admin" }
"kim@example.com" = { role = "approver", limit_krw = 100_000 }
"park@example.com" = { role = "senior_approver" }
"viewer@example.com" = { role = "viewer" }
"""
#: Everyone the roles file lets continue a thread (an approver or above): never the viewer.
MAY_CONTINUE = ["admin@example.com", "kim@example.com", "park@example.com"]
SUBJECTS = {
    "en": f"[HITL] stuck: Lecture planner thread {THREAD}",
    "ko": f"[HITL] 멈춤: 강의 계획 도우미 스레드 {THREAD}",
}
CONTINUE_HINTS = {
    "en": f'To resolve it: python -m agents continue {THREAD}, or "Continue the run" on its page.',
    "ko": f'해결: python -m agents continue {THREAD}, 또는 페이지의 "실행 계속하기".',
}


def open_episodes(store) -> list[tuple[str, str]]:
    """(kind, episode) of each waiting or stuck episode the outbox holds open."""
    return [(event.kind, event.episode) for event in outbox.open_episodes(store)]


def stuck(store, thread_id: str = THREAD) -> lifecycle.ThreadStatus:
    status = stopped_status(store, thread_id)
    assert status.waiting_since is not None
    return status


def stop_lecture(store, settings) -> lifecycle.ThreadStatus:
    """Starts the lecture planner on :data:`THREAD` and cancels it as its research starts: it is stuck."""
    with pytest.raises(RunCancelled):
        values = dict(DEFAULT_LECTURE_INPUT)
        runs.start_run(store, settings, "lecture", values, thread_id=THREAD, on_event=cancel_at("research"))
    return stuck(store)


def mail_environment(monkeypatch, port: int, **more: str) -> None:
    """The settings ``python -m agents notify`` reads from the environment: the test's SMTP server."""
    values = {
        "HITL_NOTIFY_SMTP": f"smtp://127.0.0.1:{port}",
        "HITL_NOTIFY_FROM": "hitl@example.com",
        "HITL_PUBLIC_URL": PUBLIC_URL,
        **more,
    }
    for name, value in values.items():
        monkeypatch.setenv(name, value)


def kind(mail: Message) -> str:
    return mail["Idempotency-Key"].split(":")[0]


def why(status: lifecycle.ThreadStatus, lang: str) -> str:
    """The reason the inbox gives the stuck thread, in ``lang``, as a message quotes it."""
    return status.reason_in(lang).rstrip(" .")


@pytest.mark.usefixtures("backend")
@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_stopped_run_is_mailed_once_to_whoever_may_continue_it_with_its_reason(
    store, settings, mailbox, run_cli, monkeypatch, tmp_path, lang
):
    box, port = mailbox
    roles = tmp_path / "roles.toml"
    roles.write_text(ROLES_TEXT, encoding="utf-8")
    mail_environment(monkeypatch, port, HITL_ROLES_FILE=str(roles))
    status = stop_lecture(store, settings)

    once = run_cli("--lang", lang, "notify", "--once")  # no HITL_SLA: it is told at once all the same
    assert once.code == 0, once.err
    assert once.out.startswith("recorded 1, sent 1, failed 0" if lang == "en" else "기록 1, 전송 1, 실패 0")
    [(to, mail)] = box.wait_for(1)
    assert sorted(to) == MAY_CONTINUE  # the approvers and above may continue it; a viewer may not
    assert mail["Idempotency-Key"] == f"attention:{THREAD}:{status.waiting_since.isoformat()}"
    assert subject(mail) == SUBJECTS[lang]
    text = body(mail)
    stuck_words = f"Stuck: Lecture planner thread {THREAD} has been stuck for " if lang == "en" else "멈춤: 강의"
    assert text.startswith(stuck_words), text
    assert why(status, lang) in text and CONTINUE_HINTS[lang] in text
    assert f"{PUBLIC_URL}/lecture?thread={THREAD}" in text
    if lang == "ko":
        assert not any(word in text for word in ("Stuck:", "been stuck", "its run", "Continue the run", "Open:")), text

    again = run_cli("--lang", lang, "notify", "--once")  # the same stuck head: nothing new
    assert again.code == 0 and again.out.startswith("recorded 0, sent 0" if lang == "en" else "기록 0, 전송 0")
    assert len(box.mails) == 1


@pytest.mark.usefixtures("backend")
def test_continuing_ends_the_stuck_episode_and_a_second_stop_is_a_new_mail(
    store, settings, mailbox, run_cli, monkeypatch
):
    box, port = mailbox
    mail_environment(monkeypatch, port, HITL_NOTIFY_TO="ops@example.com")  # no roles file: the configured address
    first = stop_lecture(store, settings)
    assert run_cli("notify", "--once").code == 0
    [(to, mail)] = box.wait_for(1)
    assert to == ["ops@example.com"] and kind(mail) == "attention"
    assert open_episodes(store) == [("attention", first.waiting_since.isoformat())]

    # Continued, it stops again further on (at its writing): a new stuck head, a new mail.
    with pytest.raises(RunCancelled):
        runs.continue_thread(store, settings, THREAD, on_event=cancel_at("write"))
    second = stuck(store)
    assert second.head_checkpoint_id != first.head_checkpoint_id
    assert run_cli("notify", "--once").code == 0
    mails = box.wait_for(2)
    assert [kind(mail) for _to, mail in mails] == ["attention", "attention"]
    assert mails[1][1]["Idempotency-Key"] == f"attention:{THREAD}:{second.waiting_since.isoformat()}"
    assert "write" in body(mails[1][1]) and why(second, "en") in body(mails[1][1])
    # The first episode is over (closed without a message); the second goes on.
    assert open_episodes(store) == [("attention", second.waiting_since.isoformat())]

    # The command the mail names resolves it: no stuck episode is left, and no stuck mail is sent again.
    continued = run_cli("continue", THREAD)
    assert continued.code == 0, continued.err
    now = lifecycle.thread_status(store, THREAD)
    assert now is not None and now.status in ("waiting", "done")
    assert run_cli("notify", "--once").code == 0
    assert run_cli("notify", "--once").out.startswith("recorded 0, sent 0")
    later = box.mails[2:]
    assert "attention" not in [kind(mail) for _to, mail in later]
    assert [kind for kind, _episode in open_episodes(store)] == (["waiting"] if now.status == "waiting" else [])


@pytest.mark.usefixtures("backend")
@pytest.mark.parametrize(
    ("lang", "overdue"),
    [
        ("en", f"Overdue: Lecture planner thread {THREAD} has been stuck for 3 min, past its 2 min deadline: "),
        ("ko", f"기한 지남: 강의 계획 도우미 스레드 {THREAD}, 3분째 멈춰 있음 (기한 2분): "),
    ],
)
def test_an_overdue_stuck_thread_says_it_is_stuck_and_why_not_that_it_waits(store, settings, mailbox, lang, overdue):
    box, port = mailbox
    settings = mailing(settings, port, lang=lang, sla=(("lecture", 120),))  # HITL_SLA=lecture=2m
    status = stop_lecture(store, settings)
    late = status.waiting_since + dt.timedelta(minutes=3)
    report = Deliverer(store, settings, lambda: late).run_once()
    assert (report.sent, report.failed) == (2, 0)
    mails = box.wait_for(2)
    assert [kind(mail) for _to, mail in mails] == ["attention", "overdue"]
    text = body(mails[1][1])
    assert text.startswith(overdue + why(status, lang) + "."), text
    assert CONTINUE_HINTS[lang] in text
    assert not any(words in text for words in ("has waited", "Waiting for a decision", "째 대기"))


@pytest.mark.usefixtures("backend")
def test_the_webhook_body_of_a_stuck_case_has_the_event_fields_and_the_reason(store, settings, receiver):
    settings = notifying(settings, HITL_NOTIFY_WEBHOOK=receiver.url)
    start_refund(store, settings, "S1", 500_000)
    with pytest.raises(RunCancelled):  # approved, then stopped before it settles
        answer = {"action": "approve", "approver": "kim"}
        runs.resume_thread(store, settings, "refund-S1", answer, on_event=cancel_at("settle"))
    status = stuck(store, "refund-S1")
    sent_at = status.waiting_since + dt.timedelta(minutes=5)
    Deliverer(store, settings, lambda: sent_at).run_once()
    [item] = receiver.wait_for(1)
    since = status.waiting_since.isoformat()
    assert item.key == f"attention:refund-S1:{since}"
    link = f"{PUBLIC_URL}/refund?thread=refund-S1"
    assert item.body == {
        "text": item.body["text"],
        "event_id": item.key,
        "event": "attention",
        "agent": "refund",
        "thread_id": "refund-S1",
        "waiting_since": since,
        "waited_seconds": 300,
        "happened_at": since,
        "link": link,
        "case_id": "S1",
        "customer": "홍길동",
        "amount": 500_000,
        "requested_amount": 500_000,
        "status": "attention",
        "reason": status.reason_in("en"),
        "reason_code": "stopped",
        "action": "continue",
    }
    assert item.body["text"] == (
        "Stuck: Refund agent case S1 (홍길동, 500,000 KRW) has been stuck for 5 min: "
        f'{why(status, "en")}. To resolve it: python -m agents continue refund-S1, or "Continue the run" on its'
        f" page. Open: {link}"
    )


@pytest.mark.usefixtures("backend")
def test_a_stuck_mail_sent_after_it_ran_on_says_how_long_it_was_stuck(store, settings, mailbox, closed_port):
    box, port = mailbox
    status = stop_lecture(store, settings)
    start = status.waiting_since
    down = Deliverer(store, mailing(settings, closed_port), lambda: start).run_once()
    assert (down.recorded, down.sent, down.failed) == (1, 0, 1)
    runs.continue_thread(store, settings, THREAD)
    with store.read() as cursor:
        ran_on = checkpoint_time(store.queries.next_checkpoint(cursor, THREAD, status.head_checkpoint_id))

    later = start + dt.timedelta(minutes=30)  # past the retry's backoff; the thread ran on long before
    Deliverer(store, mailing(settings, port), lambda: later).run_once()
    stuck_mail = next(mail for _to, mail in box.wait_for(1) if kind(mail) == "attention")
    span = span_text((ran_on - start).total_seconds()).render("en")
    assert body(stuck_mail).startswith(
        f"Was stuck: Lecture planner thread {THREAD}, stuck for {span} until it ran on: {why(status, 'en')}. "
    ), body(stuck_mail)
    assert "30 min" not in body(stuck_mail) and "To resolve it" not in body(stuck_mail)


def stuck_event(**facts: Any) -> Event:
    return Event("attention", "robot-x", "robot", "2026-01-01T00:00:00+00:00", 0.0, {"status": "attention", **facts})


@pytest.mark.parametrize(
    ("facts", "mailed"),
    [
        ({"reason_code": "stopped", "action": "continue"}, MAY_CONTINUE),
        ({"reason_code": "edited", "action": "continue"}, MAY_CONTINUE),
        ({"reason_code": "error", "action": "rerun"}, MAY_CONTINUE),  # continued once its cause is fixed
        ({"reason_code": "inconsistent", "action": "rerun"}, ["admin@example.com"]),  # a re-run: an admin's
        ({"reason_code": "damaged", "action": "delete"}, ["admin@example.com"]),  # a delete: an admin's
    ],
)
def test_a_stuck_thread_is_mailed_to_whoever_may_take_the_action_that_resolves_it(facts, mailed):
    roles = parse_roles(ROLES_TEXT)
    assert may_decide(roles, stuck_event(**facts)) == mailed
    overdue = dataclasses.replace(stuck_event(**facts), kind="overdue")  # its overdue message: the same people
    assert may_decide(roles, overdue) == mailed
