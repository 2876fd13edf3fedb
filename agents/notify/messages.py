"""What a notification says: its text (English or Korean), the webhook's JSON body and the mail.

A message says what waits (or is stuck, and why), for how long, the amount, and links to the case
(``HITL_PUBLIC_URL``). It is
built from the event's facts alone: no setting's value but the public URL is ever in it, so no secret is.
"""

from __future__ import annotations

import datetime as dt
import email.policy
import shlex
import urllib.parse
from email.header import Header
from email.headerregistry import BaseHeader, HeaderRegistry, UniqueUnstructuredHeader
from email.message import EmailMessage
from email.policy import Policy
from email.utils import format_datetime
from typing import Any

from agents.ages import span_text
from agents.deletion_record import deleted_link
from agents.notify.outbox import Event, is_stuck
from agents.registry import AGENTS
from agents.strings import STRINGS as AGENTS_STRINGS
from agents.texts import fill, pick, render, text
from agents.threadstatus import says_count
from agents.validation import LINE_BREAKS

STRINGS: dict[str, tuple[str, str]] = {
    "notify.waiting": (
        "Waiting for a decision: {subject}, waiting {span}. {question}Open: {link}",
        "결정 대기: {subject}, {span}째 대기. {question}열기: {link}",
    ),
    "notify.overdue": (
        "Overdue: {subject} has waited {span}, past its {deadline} deadline. Open: {link}",
        "기한 지남: {subject}, {span}째 대기 (기한 {deadline}). 열기: {link}",
    ),
    "notify.escalated": (
        "Escalated to the senior approvers: {subject} has waited {span}, past its {deadline} deadline. Open: {link}",
        "상급 승인자에게 올림: {subject}, {span}째 대기 (기한 {deadline}). 열기: {link}",
    ),
    # A wait's message sent after the wait ended (a retry, a wait found in the history): how long it lasted,
    # and that it is over, so it never reads as still waiting before the decision's own message.
    "notify.waiting.over": (
        "Waited for a decision: {subject}, {span} {until}. {question}Open: {link}",
        "결정 대기: {subject}, {span} 대기 후 {until}. {question}열기: {link}",
    ),
    "notify.overdue.over": (
        "Overdue: {subject} waited {span}, past its {deadline} deadline, {until}. Open: {link}",
        "기한 지남: {subject}, {span} 대기 (기한 {deadline}) 후 {until}. 열기: {link}",
    ),
    "notify.escalated.over": (
        "Escalated to the senior approvers: {subject} waited {span}, past its {deadline} deadline, {until}."
        " Open: {link}",
        "상급 승인자에게 올림: {subject}, {span} 대기 (기한 {deadline}) 후 {until}. 열기: {link}",
    ),
    "notify.until.decided": ("until it was decided", "결정됨"),
    "notify.until.ended": ("until the wait ended", "대기가 끝남"),
    # A stuck thread (status ``attention``: its run stopped, or it cannot go on by itself): why, in the words of
    # its status, and what resolves it. Its overdue and escalated messages say it is stuck, not waiting.
    "notify.attention": (
        "Stuck: {subject} has been stuck for {span}: {why}. To resolve it: {resolve} Open: {link}",
        "멈춤: {subject}, {span}째 멈춰 있음: {why}. 해결: {resolve} 열기: {link}",
    ),
    "notify.overdue.stuck": (
        "Overdue: {subject} has been stuck for {span}, past its {deadline} deadline: {why}."
        " To resolve it: {resolve} Open: {link}",
        "기한 지남: {subject}, {span}째 멈춰 있음 (기한 {deadline}): {why}. 해결: {resolve} 열기: {link}",
    ),
    "notify.escalated.stuck": (
        "Escalated to the senior approvers: {subject} has been stuck for {span}, past its {deadline} deadline:"
        " {why}. To resolve it: {resolve} Open: {link}",
        "상급 승인자에게 올림: {subject}, {span}째 멈춰 있음 (기한 {deadline}): {why}. 해결: {resolve} 열기: {link}",
    ),
    # ... sent after it ran on (or was deleted): how long it was stuck, and that it is over.
    "notify.attention.over": (
        "Was stuck: {subject}, stuck for {span} {until}: {why}. Open: {link}",
        "멈춤: {subject}, {span} 멈춰 있다가 {until}: {why}. 열기: {link}",
    ),
    "notify.overdue.stuck.over": (
        "Overdue: {subject} was stuck for {span}, past its {deadline} deadline, {until}: {why}. Open: {link}",
        "기한 지남: {subject}, {span} 멈춰 있다가 (기한 {deadline}) {until}: {why}. 열기: {link}",
    ),
    "notify.escalated.stuck.over": (
        "Escalated to the senior approvers: {subject} was stuck for {span}, past its {deadline} deadline,"
        " {until}: {why}. Open: {link}",
        "상급 승인자에게 올림: {subject}, {span} 멈춰 있다가 (기한 {deadline}) {until}: {why}. 열기: {link}",
    ),
    "notify.until.ran_on": ("until it ran on", "다시 실행됨"),
    "notify.until.deleted": ("until it was deleted", "삭제됨"),
    # What resolves a stuck thread (:func:`resolution`), with the command to run.
    "notify.resolve.continue": (
        'python -m agents continue {thread}, or "Continue the run" on its page.',
        'python -m agents continue {thread}, 또는 페이지의 "실행 계속하기".',
    ),
    "notify.resolve.error": (
        "fix the cause, then python -m agents continue {thread}; or re-run it from an earlier checkpoint in the"
        " checkpoint explorer.",
        "원인을 고친 뒤 python -m agents continue {thread}, 또는 체크포인트 탐색기에서 이전 체크포인트부터 다시 실행.",
    ),
    "notify.resolve.rerun": (
        "re-run it from an earlier checkpoint in the checkpoint explorer (admins).",
        "체크포인트 탐색기에서 이전 체크포인트부터 다시 실행 (관리자).",
    ),
    "notify.resolve.delete": (
        "python -m agents delete {thread} (admins).",
        "python -m agents delete {thread} (관리자).",
    ),
    "notify.decided": (
        "Decided ({outcome}): {subject}, after waiting {span}. Open: {link}",
        "결정됨 ({outcome}): {subject}, {span} 대기 후. 열기: {link}",
    ),
    "notify.deleted": (
        "Deleted while {status}: {subject}, by {who}{reason}. Deleted threads: {link}",
        "완료 전 삭제됨 ({status}): {subject}, 삭제한 사람 {who}{reason}. 삭제된 스레드: {link}",
    ),
    "notify.reason": ("; reason: {reason}", "; 이유: {reason}"),
    "notify.case": ("{agent} case {case} ({customer}, {amount})", "{agent} 건 {case} ({customer}, {amount})"),
    "notify.thread": ("{agent} thread {thread}", "{agent} 스레드 {thread}"),
    "notify.paid_of": ("paid {paid}, requested {requested}", "{paid} 지급, 요청 {requested}"),
    "notify.items_waiting": (
        "{amount} in {count} of {total} items waiting",
        "항목 {total}개 중 {count}개 대기, {amount}",
    ),
    "notify.questions_waiting": ("{amount} in {count} questions waiting", "질문 {count}개 대기, {amount}"),
    # A case with items deleted unfinished: what still waited, and what it had paid by then.
    "notify.already_paid": ("{waiting}, {paid} already paid", "{waiting}, 이미 {paid} 지급"),
    "notify.local_operator": ("the local operator", "로컬 운영자"),
    "notify.subject": ("[HITL] {kind}: {subject}", "[HITL] {kind}: {subject}"),
    "notify.kind.waiting": ("waiting", "대기"),
    "notify.kind.attention": ("stuck", "멈춤"),
    "notify.kind.overdue": ("overdue", "기한 지남"),
    "notify.kind.escalated": ("escalated", "상급 승인자에게 올림"),
    "notify.kind.decided": ("decided", "결정됨"),
    "notify.kind.deleted": ("deleted", "삭제됨"),
    # a thread's status when it was deleted, and the outcome of a decided one (the codes stay in the JSON)
    "notify.status.waiting": ("waiting", "대기 중"),
    "notify.status.attention": ("needing attention", "확인 필요"),
    "notify.outcome.paid": ("paid", "지급됨"),
    "notify.outcome.partly_paid": ("partly paid", "일부 지급됨"),
    "notify.outcome.rejected": ("rejected", "거절됨"),
    "notify.outcome.executed": ("executed", "실행됨"),
    "notify.outcome.refused": ("refused", "거부됨"),
    "notify.outcome.saved": ("saved", "저장됨"),
    "notify.outcome.saved_as_is": ("saved as is", "그대로 저장됨"),
    "notify.outcome.finished": ("finished", "종료됨"),
}

#: The facts a webhook body carries besides the text (who requested a case is for choosing recipients).
PUBLIC_FACTS = (
    "case_id", "customer", "amount", "requested_amount", "paid_amount", "waiting_count", "item_count",
    "outcome", "status", "deleted_by", "reason", "reason_code", "action",
)  # fmt: skip
#: The kinds of event about a wait (a message about one says how long it waited and how many questions wait).
WAITS = ("waiting", "overdue", "escalated")
#: The kinds of event whose message counts a span to its episode's end, or to the time of sending: a wait's,
#: and a stuck thread's (``attention``).
EPISODES = (*WAITS, "attention")
#: How a wait ended before its message was sent (the fact ``wait_over``), each with its words; a stuck
#: thread's episode ends when it runs on (``ended``) or is ``deleted``.
WAIT_ENDINGS = ("decided", "ended", "deleted")
#: What resolves a stuck thread (:func:`resolution`): continuing it, continuing it once the cause of the error
#: is fixed, a re-run from an earlier checkpoint, deleting it.
RESOLUTIONS = ("continue", "error", "rerun", "delete")


def _say(key: str, lang: str, **params: Any) -> str:
    return fill(pick(STRINGS[key], lang), params)


def _word(kind: str, code: Any, lang: str) -> str:
    """A stored code (a status, an outcome) in ``lang``'s words; a code without words as it is."""
    key = f"notify.{kind}.{str(code).replace(' ', '_')}"
    return _say(key, lang) if key in STRINGS else str(code or "")


def link(event: Event, public_url: str) -> str:
    """The case's page, ``{HITL_PUBLIC_URL}/{page}?thread={id}``; for a deleted thread, the dashboard's list of
    deleted threads pointing it out (:func:`agents.deletion_record.deleted_link`)."""
    if event.kind == "deleted":
        return deleted_link(public_url, event.thread_id)
    spec = AGENTS.get(event.agent)
    page = f"{public_url}/{spec.show.page.url_path}" if spec is not None else public_url
    return f"{page}?{urllib.parse.urlencode({'thread': event.thread_id})}"


def waited_seconds(event: Event, now: dt.datetime) -> float:
    """How long the thread waited: as the event says (``waited_seconds``: a decision, a wait that ended before
    its message was sent), else until ``now``."""
    if "waited_seconds" in event.facts:
        return float(event.facts["waited_seconds"])
    start = dt.datetime.fromisoformat(event.episode).timestamp() if event.kind != "deleted" else event.happened_at
    return max(0.0, now.timestamp() - start)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _amount(value: Any, lang: str) -> str:
    """An amount of KRW as every screen writes it (``500,000 KRW``, ``500,000원``: ``format.krw``); ``?`` unknown."""
    return render(text(AGENTS_STRINGS, "format.krw", amount=f"{value:,}"), lang) if _whole(value) else "?"


def agent_name(agent: str, lang: str) -> str:
    """The agent as the dashboard names it in ``lang`` (its ``agent.<name>.title``), else its code."""
    spec = AGENTS.get(agent)
    if spec is None:
        return agent
    title = spec.show.strings.get(f"agent.{agent}.title")
    return pick(title, lang) if title is not None else spec.title


def _deleted_amount(facts: dict[str, Any], lang: str) -> str:
    """What a case with items had when it was deleted: what still waited, in how many of its items, and what it
    had paid (``paid 430,000 KRW, requested 1,030,000 KRW`` when nothing waited)."""
    count, total, paid = facts.get("waiting_count"), facts["item_count"], facts.get("paid_amount")
    if not _whole(count) or not count:
        requested = _amount(facts.get("requested_amount"), lang)
        return _say("notify.paid_of", lang, paid=_amount(paid or 0, lang), requested=requested)
    waiting = _say("notify.items_waiting", lang, amount=_amount(facts.get("amount"), lang), count=count, total=total)
    if _whole(paid) and paid:
        return _say("notify.already_paid", lang, waiting=waiting, paid=_amount(paid, lang))
    return waiting


def _case_amount(event: Event, lang: str) -> str:
    """What a message says of the case's amount: what a decided case paid (and its request, when the two
    differ); what a deleted case with items still waited for and had paid; else what waits, with how many
    questions wait where the thread's status says so (:func:`agents.threadstatus.says_count`: several at once,
    or one item of several)."""
    facts = event.facts
    paid, requested = facts.get("paid_amount"), facts.get("requested_amount")
    if event.kind == "deleted" and _whole(facts.get("item_count")):
        return _deleted_amount(facts, lang)
    if event.kind == "decided" and _whole(paid):
        if _whole(requested) and requested != paid:
            return _say("notify.paid_of", lang, paid=_amount(paid, lang), requested=_amount(requested, lang))
        return _amount(paid, lang)
    amount = _amount(facts.get("amount") if facts.get("amount") is not None else requested, lang)
    count, total = facts.get("waiting_count"), facts.get("item_count")
    if event.kind not in WAITS or not isinstance(count, int) or isinstance(count, bool):
        return amount
    if not says_count(count, facts):  # the status's own rule: several questions, or one item of several
        return amount
    if _whole(total):
        return _say("notify.items_waiting", lang, amount=amount, count=count, total=total)
    return _say("notify.questions_waiting", lang, amount=amount, count=count)


def resolution(event: Event) -> str:
    """What resolves the stuck thread of ``event`` (one of :data:`RESOLUTIONS`), from the action its status named
    (the lifecycle's ``action``, which the pages follow): ``continue``; ``error`` for a node that raised (its
    reason says to continue it once the cause is fixed, or to re-run it); ``rerun``; ``delete``."""
    facts = event.facts
    if facts.get("reason_code") == "error":
        return "error"
    action = facts.get("action")
    return action if isinstance(action, str) and action in RESOLUTIONS else "continue"


def _stuck_words(event: Event, lang: str) -> dict[str, str]:
    """A stuck thread's message's ``why`` (its status's reason, as the scan wrote it in the reader's language)
    and ``resolve`` (what resolves it, with the command for its thread)."""
    why = str(event.facts.get("reason") or "").rstrip(" .")
    thread = shlex.quote(event.thread_id)  # a command to paste: an id other software made may hold a space
    return {"why": why, "resolve": _say(f"notify.resolve.{resolution(event)}", lang, thread=thread)}


def subject(event: Event, lang: str) -> str:
    """What the event is about: a case with its customer and amount, else the thread; its agent named as the
    dashboard names it in ``lang``."""
    facts, agent = event.facts, agent_name(event.agent, lang)
    if facts.get("case_id") is not None:
        return _say(
            "notify.case", lang, agent=agent, case=facts["case_id"], customer=facts.get("customer") or "?",
            amount=_case_amount(event, lang),
        )  # fmt: skip
    return _say("notify.thread", lang, agent=agent, thread=event.thread_id)


def message_text(event: Event, public_url: str, now: dt.datetime, lang: str) -> str:
    """The message in ``lang``: what waits, for how long, the amount, and the link. A wait's message whose
    wait ended before it was sent (``wait_over``, set by the deliverer) says how long it lasted and that it
    was decided (or ended) since. A stuck thread's (:func:`agents.notify.outbox.is_stuck`: its ``attention``
    event, and its overdue and escalated ones) says it is stuck, why, and what resolves it; sent after it ran
    on, for how long it was stuck."""
    facts = event.facts
    span = span_text(waited_seconds(event, now)).render(lang)
    question, reason = facts.get("question"), facts.get("reason")
    who = _say("notify.local_operator", lang) if facts.get("deleted_by_local") else facts.get("deleted_by") or "?"
    over = facts.get("wait_over") if event.kind in EPISODES else None
    over = over if over in WAIT_ENDINGS else None
    stuck = is_stuck(event)
    key = f"notify.{event.kind}" + (".stuck" if stuck and event.kind != "attention" else "")
    ending = "ran_on" if stuck and over == "ended" else over
    return _say(
        f"{key}.over" if over else key,
        lang,
        until=_say(f"notify.until.{ending}", lang) if ending else "",
        **(_stuck_words(event, lang) if stuck else {}),
        subject=subject(event, lang),
        span=span,
        question=f"{question} " if question else "",
        deadline=span_text(float(facts.get("deadline_seconds") or 0)).render(lang),
        outcome=_word("outcome", facts.get("outcome"), lang),
        status=_word("status", facts.get("status"), lang),
        who=who,
        reason=_say("notify.reason", lang, reason=reason) if reason else "",
        link=link(event, public_url),
    )


#: What Slack's message formatting reads as markup in a ``text`` (``<!channel>`` notifies everyone in the
#: channel, ``<http://x|label>`` is a link labelled anything), each as the entity it documents for the
#: character itself. Mattermost turns ``<!channel>`` into ``@channel`` as Slack would, and reads ``text`` as
#: Markdown, where these entities are the characters too; Teams, which reads no Slack markup, may show them
#: as written, the price of one ``text`` for every receiver.
CHAT_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})


def _chat_text(text: str) -> str:
    """``text`` as a chat webhook's ``text``: ``&``, ``<`` and ``>`` escaped (:data:`CHAT_ESCAPES`), so what a
    person typed (a customer's name) is shown as typed, never read as a mention or a link."""
    return text.translate(CHAT_ESCAPES)


def idempotency_key(event: Event) -> str:
    """The ``Idempotency-Key`` header of the event's webhook request and mail: its id, with every character
    beyond ASCII letters, digits and ``_.-~:+`` percent-encoded in UTF-8: an HTTP header holds no ``건-1042``
    (Latin-1 at most), nor the line break a thread made by other tooling may be named with. An ASCII
    dashboard id (``waiting:refund-C1:2026-...+00:00``) is as it is."""
    return urllib.parse.quote(event.event_id, safe=":+")


def webhook_body(event: Event, public_url: str, now: dt.datetime, lang: str) -> dict[str, Any]:
    """The JSON a webhook receives: ``text`` (what chat webhooks show, :func:`_chat_text`) and the event's fields."""
    return {
        "text": _chat_text(message_text(event, public_url, now, lang)),
        "event_id": event.event_id,
        "event": event.kind,
        "agent": event.agent,
        "thread_id": event.thread_id,
        "waiting_since": event.episode if event.kind != "deleted" else None,
        "waited_seconds": round(waited_seconds(event, now)),
        "happened_at": dt.datetime.fromtimestamp(event.happened_at, dt.UTC).isoformat(),
        "link": link(event, public_url),
        **{key: event.facts[key] for key in PUBLIC_FACTS if event.facts.get(key) is not None},
    }


#: The longest line of a header holding RFC 2047 encoded words (RFC 2047 section 2).
ENCODED_LINE_LENGTH = 76


class SubjectHeader(UniqueUnstructuredHeader, BaseHeader):
    """A ``Subject`` folded by :class:`email.header.Header`, so that a reader unfolds it to its exact text.

    The folding of ``email.policy.default`` (CPython before gh-144156) can put the space between two words
    of text that needs encoding between two encoded words, where RFC 2047 makes every reader drop it
    (``3개 중`` read as ``3개중``). ``Header`` encodes every space inside an encoded word instead, and text
    that needs no encoding stays plain, folded only at its own spaces. Plain text that cannot fold within
    the line length, or that holds ``=?`` (which a reader could take for an encoded word), is encoded too.
    """

    max_count = 1  # a mail has one Subject

    def fold(self, *, policy: Policy) -> str:
        text, linesep = str(self), policy.linesep
        limit = min(policy.max_line_length or ENCODED_LINE_LENGTH, ENCODED_LINE_LENGTH)
        if text.isascii() and "=?" not in text:
            folded = f"{self.name}: {Header(text, 'us-ascii', limit, self.name).encode(linesep=linesep)}"
            if all(len(line) <= limit for line in folded.split(linesep)):
                return folded + linesep
        return f"{self.name}: {Header(text, 'utf-8', limit, self.name).encode(linesep=linesep)}{linesep}"


def _mail_headers() -> HeaderRegistry:
    registry = HeaderRegistry()
    registry.map_to_type("subject", SubjectHeader)
    return registry


#: How a notification mail is written: ``email.policy.default`` with its ``Subject`` a :class:`SubjectHeader`.
MAIL_POLICY = email.policy.default.clone(header_factory=_mail_headers())


def _one_line(text: str) -> str:
    """``text`` with each line break a space: what a header may hold.

    Python's ``email`` ends a header's line at every character :meth:`str.splitlines` does (U+2028 among
    them); one-line fields refuse those (:data:`agents.validation.LINE_BREAKS`), and an event whose facts
    hold one (recorded before they were refused, or from a thread LangGraph's own tooling started) still
    makes a mail of one ``Subject``, never one that fails or grows another header.
    """
    return "".join(" " if char in LINE_BREAKS else char for char in text)


def _header_value(text: str) -> str:
    """``text`` as a header value the header parser reads back as ``text``: with ``=?`` in it, one encoded
    word (the parser would decode a literal encoded word in the text)."""
    return Header(text, "utf-8").encode(maxlinelen=0) if "=?" in text else text


def mail(event: Event, public_url: str, now: dt.datetime, lang: str, sender: str, to: list[str]) -> EmailMessage:
    """The notification as a plain-text mail; its ``Message-ID`` is made from the event id.

    Its ``Date`` (RFC 5322 requires one) is ``now``, when the mail is made and sent: the moment its text's
    ages are counted to. The event's own time is in the text; as a ``Date`` it would date a retried mail,
    or a wait found in the history after it ended, in the past, out of place in the reader's mailbox.
    """
    message = EmailMessage(policy=MAIL_POLICY)
    kind = _say(f"notify.kind.{event.kind}", lang)
    message["Subject"] = _header_value(_one_line(_say("notify.subject", lang, kind=kind, subject=subject(event, lang))))
    message["From"] = sender
    message["To"] = ", ".join(to)
    message["Date"] = format_datetime(now.astimezone(dt.UTC))
    domain = sender.rpartition("@")[2] or "localhost"
    message["Message-ID"] = f"<{urllib.parse.quote(event.event_id, safe='')}@{domain}>"
    message["Idempotency-Key"] = idempotency_key(event)
    message.set_content(message_text(event, public_url, now, lang) + "\n")
    return message
