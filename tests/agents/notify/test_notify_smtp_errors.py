"""A failed mail says why, as ``notify --once`` and ``notify --status`` show it: what a real SMTP server (aiosmtpd)
answered, its code and words and whom or what it refused; a server that takes the connection and never
answers as a timeout, not a refusal; never the password, however the server echoes it. ``notify --once`` exits
3 when a send of its round failed, so cron sees it.
"""

from __future__ import annotations

import base64
import socket
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager
from typing import Any

import pytest
from aiosmtpd.smtp import AuthResult

from agents.notify import channels, outbox
from agents.notify.deliverer import Deliverer
from tests.agents.notify.conftest import notifying
from tests.factories import start_refund
from tests.notify_receivers import MailBox, smtp_server

# aiosmtpd warns of a server that asks for a login without TLS; a login to this machine over plain SMTP is allowed.
pytestmark = pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS:UserWarning")

USER, PASSWORD = "hitl-mailer", "pa:ss@w0rd/+"
#: The password as ``AUTH PLAIN`` (with the user) and ``AUTH LOGIN`` send it, which a careless server may echo.
PLAIN = base64.b64encode(f"\0{USER}\0{PASSWORD}".encode()).decode()
LOGIN = base64.b64encode(PASSWORD.encode()).decode()


class RefusingBox(MailBox):
    """A mailbox whose server answers the sender, a recipient or the mail with the given refusal."""

    def __init__(self, *, sender: str = "", recipient: str = "", mail: str = "") -> None:
        super().__init__()
        self.answers = {"sender": sender, "recipient": recipient, "mail": mail}

    async def handle_MAIL(self, server: Any, session: Any, envelope: Any, address: str, options: list) -> str:  # noqa: N802  # aiosmtpd's name
        if self.answers["sender"]:
            return self.answers["sender"].format(address=address)
        envelope.mail_from = address
        return "250 OK"

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: list) -> str:  # noqa: N802  # aiosmtpd's name
        if self.answers["recipient"]:
            return self.answers["recipient"].format(address=address)
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802  # aiosmtpd's name
        if self.answers["mail"]:
            return self.answers["mail"]
        return await super().handle_DATA(server, session, envelope)


def accept_any_login(server: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> AuthResult:
    return AuthResult(success=True)


def refusing_server(**answers: str) -> AbstractContextManager[tuple[RefusingBox, int]]:
    """A real SMTP server on a free loopback port that takes any login and refuses as ``answers`` say."""
    return smtp_server(RefusingBox(**answers), authenticator=accept_any_login, auth_require_tls=False)


def mail_environment(monkeypatch: pytest.MonkeyPatch, port: int) -> dict[str, str]:
    """The settings of a deliverer mailing through 127.0.0.1:``port`` with a login, set in the environment (as
    the command line reads them); returns them."""
    values = {
        "HITL_NOTIFY_SMTP": f"smtp://127.0.0.1:{port}",
        "HITL_NOTIFY_FROM": "hitl@example.com",
        "HITL_NOTIFY_TO": "ops@example.com",
        "HITL_NOTIFY_SMTP_USER": USER,
        "HITL_NOTIFY_SMTP_PASSWORD": PASSWORD,
    }
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    return values


def the_failure(store) -> str:
    [(_event, channel, attempts, error, _next)] = outbox.failing(store)
    assert (channel, attempts) == ("email", 1)
    return error


@pytest.mark.parametrize(
    ("lang", "refusal"),
    [
        ("en", "refused the recipient ops@example.com: 550 5.1.1 mailbox ops@example.com unknown"),
        ("ko", "받는 사람 ops@example.com을 거부했습니다: 550 5.1.1 mailbox ops@example.com unknown"),
    ],
)
def test_a_refused_recipient_is_named_with_what_the_server_said_and_notify_once_exits_3(
    store, settings, run_cli, monkeypatch, lang, refusal
):
    start_refund(store, settings, "N1", 700_000)
    with refusing_server(recipient="550 5.1.1 mailbox {address} unknown") as (box, port):
        mail_environment(monkeypatch, port)
        once = run_cli("--lang", lang, "notify", "--once")
        assert box.mails == []
    assert once.code == 3  # cron sees that nothing went out
    counts = "recorded 1, sent 0, failed 1" if lang == "en" else "기록 1, 전송 0, 실패 1"
    assert once.out.startswith(counts)
    error = the_failure(store)
    assert error.startswith(f"SMTP server 127.0.0.1:{port} " if lang == "en" else f"SMTP 서버 127.0.0.1:{port}")
    assert refusal in error and "SMTPRecipientsRefused" not in error
    for args in (("notify", "--status"), ("notify", "--status", "--json")):
        shown = run_cli(*args)
        assert shown.code == 3 and "550 5.1.1 mailbox ops@example.com unknown" in shown.out
        assert PASSWORD not in shown.out + shown.err and PLAIN not in shown.out + shown.err


@pytest.mark.parametrize(
    ("answers", "said"),
    [
        ({"sender": "553 5.7.1 sender {address} not allowed"}, "refused the sender hitl@example.com: 553 5.7.1"),
        ({"mail": "554 5.6.0 message refused as spam"}, "refused the mail: 554 5.6.0 message refused as spam"),
    ],
)
def test_a_refused_sender_or_mail_says_the_server_s_code_and_words(store, settings, answers, said):
    start_refund(store, settings, "N1", 700_000)
    with refusing_server(**answers) as (_box, port):
        mailing = notifying(
            settings, HITL_NOTIFY_SMTP=f"smtp://127.0.0.1:{port}", HITL_NOTIFY_FROM="hitl@example.com",
            HITL_NOTIFY_TO="ops@example.com",
        )  # fmt: skip
        assert Deliverer(store, mailing).run_once().failed == 1
    error = the_failure(store)
    assert error.startswith(f"SMTP server 127.0.0.1:{port} {said}")


def test_a_server_that_echoes_the_login_never_puts_the_password_in_an_error(store, settings, monkeypatch, run_cli):
    start_refund(store, settings, "N1", 700_000)
    echo = f"550 5.1.1 {{address}} unknown to {USER} with {PASSWORD} ({PLAIN}, {LOGIN})"
    with refusing_server(recipient=echo) as (_box, port):
        mail_environment(monkeypatch, port)
        assert run_cli("notify", "--once").code == 3
    error = the_failure(store)
    assert "550 5.1.1 ops@example.com unknown to hitl-mailer with *** (***, ***)" in error
    assert PASSWORD not in error and PLAIN not in error and LOGIN not in error
    assert PASSWORD not in run_cli("notify", "--status").out


@pytest.fixture
def silent_server() -> Iterator[int]:
    """A port that takes connections (the kernel completes them) and never says a word: no greeting, no reply."""
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen(8)
        yield listening.getsockname()[1]


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "did not answer within 0.2 s (timed out)"), ("ko", "0.2초 안에 응답하지 않았습니다 (시간 초과)")],
)
def test_a_server_that_never_answers_is_a_timeout_not_a_refusal(
    store, settings, run_cli, monkeypatch, silent_server, lang, words
):
    monkeypatch.setattr(channels, "SEND_TIMEOUT_SECONDS", 0.2)  # the SMTP connection's timeout, read per send
    start_refund(store, settings, "N1", 700_000)
    mail_environment(monkeypatch, silent_server)
    once = run_cli("--lang", lang, "notify", "--once")
    assert once.code == 3
    error = the_failure(store)
    assert words in error and f"127.0.0.1:{silent_server}" in error
    assert "refused" not in error and "거부" not in error and "Disconnected" not in error


def test_a_server_that_hangs_up_says_so(store, settings, run_cli, monkeypatch):
    start_refund(store, settings, "N1", 700_000)
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen(8)
        port = listening.getsockname()[1]
        hang_up = threading.Thread(target=lambda: listening.accept()[0].close())
        hang_up.start()
        mail_environment(monkeypatch, port)
        assert run_cli("notify", "--once").code == 3
        hang_up.join()
    error = the_failure(store)
    assert error == f"SMTP server 127.0.0.1:{port} closed the connection unexpectedly"


def test_notify_once_exits_0_when_every_send_went_out(store, settings, run_cli, monkeypatch):
    start_refund(store, settings, "N1", 700_000)
    with refusing_server() as (box, port):
        mail_environment(monkeypatch, port)
        once = run_cli("notify", "--once")
        box.wait_for(1)
    assert once.code == 0 and once.out.startswith("recorded 1, sent 1, failed 0")
    assert run_cli("notify", "--once").code == 0  # nothing to send is no failure either
