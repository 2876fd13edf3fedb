"""A notification mail's ``Subject`` reads as exactly the text the product made, spaces included, however
it folds: as a real SMTP server (aiosmtpd) receives it, read by Python's ``email`` parser and by a strict
RFC 2047 reading (the space between two adjacent encoded words is dropped, every other one is kept), with
every line of the header within 78 characters.
"""

from __future__ import annotations

import base64
import copy
import datetime as dt
import email
import email.policy
import io
import quopri
import re
from collections.abc import Iterator
from email.generator import BytesGenerator
from email.message import EmailMessage
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from hypothesis import given
from hypothesis import strategies as st

from agents.notify import channels, messages
from agents.notify.outbox import KINDS, Event
from agents.settings_notify import notify_setting
from agents.texts import fill, pick
from tests.agents.notify.conftest import PUBLIC_URL
from tests.notify_receivers import MailBox
from tests.serving import free_port

NOW = dt.datetime(2026, 5, 4, 9, 30, tzinfo=dt.UTC)
EPISODE = "2026-05-01T09:00:00+00:00"
#: A line of a header (RFC 5322 section 2.1.1); an encoded word is at most 75 (RFC 2047 section 2).
LINE = 78
ENCODED_WORD = re.compile(r"=\?([^?*\s]+)(?:\*[^?\s]*)?\?([bBqQ])\?([^?\s]*)\?=")


def strict_rfc2047(value: str) -> str:
    """A raw header value as RFC 2047 reads it: unfolded (RFC 5322), each whole word that is an encoded
    word decoded, the white space between two adjacent encoded words dropped, all other text as it is."""
    unfolded = re.sub(r"\r\n(?=[ \t])", "", value)
    out: list[str] = []
    space, after_encoded = "", False
    for piece in re.split(r"([ \t]+)", unfolded):
        if not piece:
            continue
        if piece[0] in " \t":
            space = piece
            continue
        found = ENCODED_WORD.fullmatch(piece)
        if found is None:
            out += [space, piece]
        else:
            charset, encoding, data = found.groups()
            if encoding in "bB":
                octets = base64.b64decode(data, validate=True)
            else:
                octets = quopri.decodestring(data.replace("_", " ").encode("ascii"), header=True)
            out += ["" if after_encoded else space, octets.decode(charset)]
        space, after_encoded = "", found is not None
    return "".join([*out, space])


def raw_subject(raw: bytes) -> list[str]:
    """The ``Subject`` field's lines as they are in the mail's bytes (its name included)."""
    lines = raw.split(b"\r\n\r\n", 1)[0].decode("utf-8").split("\r\n")
    [start] = [at for at, line in enumerate(lines) if line.lower().startswith("subject:")]
    end = start + 1
    while end < len(lines) and lines[end][:1] in (" ", "\t"):
        end += 1
    return lines[start:end]


def assert_reads_as(raw: bytes, expected: str) -> None:
    """The mail's ``Subject`` reads as ``expected`` both ways; each of its lines fits, in ASCII."""
    assert email.message_from_bytes(raw, policy=email.policy.default)["Subject"] == expected
    lines = raw_subject(raw)
    assert strict_rfc2047("\r\n".join(lines)[len("Subject: ") :]) == expected
    assert all(line.isascii() and len(line) <= LINE for line in lines), lines
    assert all(len(word.group()) <= 75 for line in lines for word in ENCODED_WORD.finditer(line))


def made_subject(event: Event, lang: str) -> str:
    """The subject text the product makes for ``event`` (``[HITL] KIND: CASE``)."""
    kind = pick(messages.STRINGS[f"notify.kind.{event.kind}"], lang)
    return fill(
        pick(messages.STRINGS["notify.subject"], lang), {"kind": kind, "subject": messages.subject(event, lang)}
    )


def as_sent(mail: EmailMessage, *, utf8: bool = False) -> bytes:
    """The bytes ``smtplib.SMTP.send_message`` sends for ``mail`` (``utf8``: to a server offering SMTPUTF8,
    for an address that is not ASCII)."""
    out = io.BytesIO()
    policy = mail.policy.clone(utf8=True) if utf8 else None
    BytesGenerator(out, policy=policy).flatten(copy.copy(mail), linesep="\r\n")
    return out.getvalue()


def event(kind: str, *, agent: str = "refund", **facts: Any) -> Event:
    thread = f"{agent}-{facts.get('case_id') or 'T1'}"
    return Event(kind, thread, agent, EPISODE, dt.datetime.fromisoformat(EPISODE).timestamp(), facts)


def case_events(customer: str, case_id: str = "K02") -> list[Event]:
    """An event of every kind about one refund case: several items waiting, a partial payment, a deletion."""
    waits = {"case_id": case_id, "customer": customer, "amount": 500_000, "waiting_count": 2, "item_count": 3}
    paid = {"case_id": case_id, "customer": customer, "paid_amount": 200_000, "requested_amount": 500_000}
    deleted = {"case_id": case_id, "customer": customer, "amount": 500_000, "status": "waiting", "reason": "dup"}
    by_kind = {"waiting": waits, "overdue": waits, "escalated": waits, "decided": {**paid, "outcome": "partly_paid"}}
    made = [event(kind, **by_kind.get(kind, {**deleted, "deleted_by": "kim@example.com"})) for kind in KINDS]
    return [*made, event("waiting", agent="robot", case_id=None), event("deleted", agent="lecture")]


class RawMailBox(MailBox):
    """A mailbox that also keeps each mail's bytes as the SMTP server received them."""

    def __init__(self) -> None:
        super().__init__()
        self.raw: list[bytes] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802  # aiosmtpd's name
        self.raw.append(envelope.original_content)
        return await super().handle_DATA(server, session, envelope)


@pytest.fixture
def raw_mailbox() -> Iterator[tuple[RawMailBox, int]]:
    box, port = RawMailBox(), free_port()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield box, port
    finally:
        controller.stop()


def send(port: int, events: list[Event], lang: str) -> None:
    settings = notify_setting(
        {
            "HITL_PUBLIC_URL": PUBLIC_URL,
            "HITL_NOTIFY_SMTP": f"smtp://127.0.0.1:{port}",
            "HITL_NOTIFY_FROM": "hitl@example.com",
            "HITL_NOTIFY_TO": "ops@example.com",
        }
    )
    for one in events:
        channels.send_mail(settings, ["ops@example.com"], one, NOW, lang)


def test_the_escalated_korean_mail_keeps_the_space_of_its_folded_subject(raw_mailbox):
    box, port = raw_mailbox
    escalated = event("escalated", case_id="K02", customer="김철수", amount=500_000, waiting_count=2, item_count=3)
    send(port, [escalated], "ko")
    box.wait_for(1)
    [raw] = box.raw
    assert len(raw_subject(raw)) > 1  # folded: the case the space was lost in
    assert_reads_as(raw, "[HITL] 상급 승인자에게 올림: 환불 에이전트 건 K02 (김철수, 항목 3개 중 2개 대기, 500,000원)")


@pytest.mark.parametrize(
    ("lang", "customer"),
    [
        ("ko", "김철수 박영희 이민준 최서연 정하은 강도윤 조시우"),
        ("ko", "Kim Cheolsu of the Seoul branch office, second floor"),
        ("en", "Kim Cheolsu of the Seoul branch office, second floor, by the window"),
        ("en", "김철수 박영희 이민준 최서연 정하은 강도윤 조시우"),
        ("en", "Kim  double  spaced   name with =?utf-8?q?x?= in it"),
    ],
)
def test_every_kind_of_mail_reads_as_its_exact_long_subject(raw_mailbox, lang, customer):
    box, port = raw_mailbox
    events = case_events(customer)
    send(port, events, lang)
    box.wait_for(len(events))
    assert [one.event_id for one in events] == [mail["Idempotency-Key"] for _to, mail in box.mails]
    for one, raw in zip(events, box.raw, strict=True):
        assert len(raw_subject(raw)) > 1 or one.facts.get("case_id") is None  # a case's subject folds
        assert_reads_as(raw, made_subject(one, lang))


#: Text of a customer's name: Korean and Latin letters, digits, punctuation a subject holds, and spaces.
NAME_TEXT = st.text(
    st.sampled_from([" ", " ", " ", "\t", "김", "철", "수", "a", "Z", "7", ",", "(", ")", "=", "?", "_"])
)


@given(
    customer=NAME_TEXT,
    case_id=st.text(st.sampled_from(["K", "0", "2", "항", " "]), min_size=1, max_size=40),
    kind=st.sampled_from(KINDS),
    lang=st.sampled_from(["en", "ko"]),
    utf8=st.booleans(),
)
def test_a_subject_reads_as_made_wherever_its_spaces_fall(customer, case_id, kind, lang, utf8):
    # The customer's name and the case id move every space of the subject across the places it folds at.
    [made] = [one for one in case_events(customer, case_id) if one.kind == kind and one.agent == "refund"]
    mail = messages.mail(made, PUBLIC_URL, NOW, lang, "hitl@example.com", ["ops@example.com"])
    assert_reads_as(as_sent(mail, utf8=utf8), made_subject(made, lang))
