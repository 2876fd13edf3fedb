"""A refused refund decision is said in the reader's language on the command line, and a name the local
operator types that names a person of the roles file is held to that person's role and limit.

Every permission refusal is a catalogue text (``agents.identity``, ``agents.refund.permissions``): the
command line's ``decide`` result rows, its ``resume`` and ``run --answer`` errors say an approver's limit, four
eyes and a role in Korean under ``--lang ko``. With a roles file, ``--approver kim@example.com`` (or kim's
display name or token label, however written) is kim's decision: refused above kim's limit as kim is refused
signed in, and a viewer's name decides nothing; a name the file does not know, and every name without a roles
file, is the local operator's, who decides everything. The pages' side is
``tests/dashboard/test_signed_in_refusal_words.py``, the HTTP API's ``tests/api/test_api_refusal_language.py``.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from agents import runs
from agents.api.app import create_app
from agents.errors import PermissionDenied
from agents.identity import LOCAL_OPERATOR, held_to_roles, refusal, token_hash
from agents.refund import item_ledger, ledger
from agents.refund.permissions import APPROVE_REFUND, REJECT_REFUND
from agents.roles_file import parse_roles
from agents.runtime import load_settings

ROLES = f"""
[users]
"kim@example.com" = {{ role = "approver", limit_krw = 1_000_000, name = "Kim Minji" }}
"vera@example.com" = {{ role = "viewer" }}
"park@example.com" = {{ role = "senior_approver", name = "Park" }}

[tokens]
"kim-laptop" = {{ sha256 = "{token_hash("tok-kim-3c1f")}", email = "kim@example.com" }}
"""
KIM = parse_roles(ROLES).identity_for("kim@example.com")
#: The English and the Korean of each refusal, and the words of the other language that must not show.
LIMIT = {
    "en": "not allowed: your limit is 1,000,000 KRW; this case pays 1,260,000 KRW and needs a senior approver",
    "ko": "허용되지 않음: 승인 한도는 1,000,000원인데 이 건은 1,260,000원을 지급하므로 선임 승인자가 필요합니다",
}
FOUR_EYES = {
    "en": "not allowed: you requested this refund; another person must approve it (four eyes)",
    "ko": "허용되지 않음: 이 환불은 본인이 요청했습니다. 다른 사람이 승인해야 합니다(4-eyes 원칙)",
}
VIEWER = {
    "en": "not allowed: vera@example.com is a viewer; approving a refund needs an approver or above",
    "ko": "허용되지 않음: vera@example.com의 역할은 열람자입니다. 환불 승인에는 승인자 이상의 역할이 필요합니다",
}
ENGLISH_WORDS = ("not allowed", "your limit", "you requested", "is a viewer")


@pytest.fixture
def roles_file(use_roles: Callable[[str], Path]) -> Path:
    return use_roles(ROLES)


def start(run_cli, case: str, amount: int) -> None:
    started = run_cli("run", "refund", "--case", case, "--customer", "c", "--amount", str(amount), "--reason", "r")
    assert started.code == 0, started.err


def paid(store) -> list[tuple[str, str]]:
    return [(row["case_id"], row["approver"]) for row in ledger.ledger_rows(store)]


def said(lang: str, words: dict[str, str], shown: str) -> None:
    assert words[lang] in shown, shown
    if lang == "ko":
        assert not any(english in shown for english in ENGLISH_WORDS), shown


# --- every refusal in the reader's language -----------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_four_eyes_is_said_in_the_readers_language_by_decide_and_resume(run_cli, store, settings, roles_file, lang):
    runs.start_run(
        store, settings, "refund", {"case_id": "K1", "customer": "c", "amount": 500_000, "reason": "r"}, actor=KIM
    )
    decided = run_cli("--lang", lang, "decide", "refund-K1", "--action", "approve", "--approver", "Kim Minji")
    assert decided.code == 2
    (row,) = decided.out.splitlines()
    item, result, reason = row.split("\t")
    assert (item, result) == ("refund-K1", "받아들여지지 않음" if lang == "ko" else "refused")
    said(lang, FOUR_EYES, reason)
    resumed = run_cli("--lang", lang, "resume", "refund-K1", '{"action": "approve", "approver": "Kim Minji"}')
    assert resumed.code == 2 and resumed.err.startswith("오류: " if lang == "ko" else "error: "), resumed.err
    said(lang, FOUR_EYES, resumed.err)
    assert paid(store) == []


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_an_approvers_limit_is_said_in_the_readers_language_by_decide_resume_and_run(run_cli, store, roles_file, lang):
    start(run_cli, "C16", 1_260_000)
    decided = run_cli("--lang", lang, "decide", "refund-C16", "--action", "approve", "--approver", "kim@example.com")
    assert decided.code == 2
    said(lang, LIMIT, decided.out)
    resumed = run_cli("--lang", lang, "resume", "refund-C16", '{"action": "approve", "approver": "kim@example.com"}')
    assert resumed.code == 2
    said(lang, LIMIT, resumed.err)
    answer = '{"action": "approve", "approver": "kim@example.com"}'
    start_answered = ("run", "refund", "--case", "C17", "--customer", "c", "--amount", "1260000", "--reason", "r")
    ran = run_cli("--lang", lang, *start_answered, "--answer", answer)
    assert ran.code == 2
    said(lang, LIMIT, ran.err)
    assert paid(store) == []


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_viewers_name_decides_nothing_and_is_told_so_in_the_readers_language(run_cli, store, roles_file, lang):
    start(run_cli, "V1", 300_000)
    approved = run_cli("--lang", lang, "decide", "refund-V1", "--action", "approve", "--approver", "vera@example.com")
    assert approved.code == 2
    said(lang, VIEWER, approved.out)
    rejected = run_cli("--lang", lang, "decide", "refund-V1", "--action", "reject", "--approver", "Vera@Example.com")
    assert rejected.code == 2
    rejecting = {"en": "rejecting a refund needs an approver or above", "ko": "환불 거절에는 승인자 이상의 역할이"}
    said(lang, rejecting, rejected.out)
    audit = json.loads(run_cli("ledger", "--audit", "--json").out)
    assert [(row["case_id"], row["status"], row["approver"]) for row in audit] == [("V1", "waiting", "")]


# --- a typed name of the roles file is held to its person's rights ----------------------------------


@pytest.mark.parametrize(
    "typed",
    [
        "kim@example.com",
        "KIM@EXAMPLE.COM",
        "Kim Minji",
        "kim.minji",
        "ｋｉｍ＠ｅｘａｍｐｌｅ．ｃｏｍ",
        "K\u0456m M\u0456nj\u0456",
        "kim-laptop",
        "kim",
        "ＫＩＭ",
    ],
    ids=[
        "email",
        "case",
        "display-name",
        "separators",
        "fullwidth",
        "cyrillic-i",
        "token-label",
        "local-part",
        "wide-local-part",
    ],
)
def test_a_name_of_the_roles_file_however_written_is_held_to_its_persons_limit(run_cli, store, roles_file, typed):
    start(run_cli, "C16", 1_260_000)
    decided = run_cli("decide", "refund-C16", "--action", "approve", "--approver", typed)
    assert decided.code == 2 and LIMIT["en"] in decided.out, decided.out
    assert paid(store) == []
    audit = json.loads(run_cli("ledger", "--audit", "--json").out)
    assert [(row["approver"], row["status"]) for row in audit] == [("", "waiting")]


def test_a_named_person_within_their_limit_a_senior_approver_and_an_unknown_name_decide(run_cli, store, roles_file):
    for case, amount in (("S1", 900_000), ("S2", 1_260_000), ("S3", 1_260_000)):
        start(run_cli, case, amount)
    for case, approver in (("S1", "kim@example.com"), ("S2", "Park"), ("S3", "Someone Else")):
        decided = run_cli("decide", f"refund-{case}", "--action", "approve", "--approver", approver)
        assert decided.code == 0 and "\tpaid" in decided.out, decided.out
    assert sorted(paid(store)) == [("S1", "kim@example.com"), ("S2", "Park"), ("S3", "Someone Else")]
    # kim may reject what is beyond her limit, as signed in
    start(run_cli, "S4", 1_260_000)
    rejected = run_cli("decide", "refund-S4", "--action", "reject", "--approver", "kim@example.com")
    assert rejected.code == 0 and "\trejected" in rejected.out, rejected.out


def test_without_a_roles_file_the_local_operator_decides_everything(run_cli, store, monkeypatch):
    monkeypatch.setenv("HITL_ROLES_FILE", "")
    start(run_cli, "C16", 1_260_000)
    decided = run_cli("decide", "refund-C16", "--action", "approve", "--approver", "kim@example.com")
    assert decided.code == 0 and "\tpaid" in decided.out, decided.out
    assert paid(store) == [("C16", "kim@example.com")]


def test_an_update_that_sets_an_approval_is_held_to_the_named_persons_limit(store, db_location, roles_file):
    settings = load_settings(db_override=db_location, secrets={})
    runs.start_run(store, settings, "refund", {"case_id": "U1", "customer": "c", "amount": 1_260_000, "reason": "r"})
    with pytest.raises(PermissionDenied) as refused:
        runs.update_thread(store, settings, "refund-U1", {"decision": "approve", "approver": "Kim Minji"})
    assert refused.value.render("ko").startswith(LIMIT["ko"])
    assert paid(store) == []


def test_the_refusal_of_a_typed_name_is_the_words_its_person_gets_signed_in():
    roles = parse_roles(ROLES)
    local = held_to_roles(LOCAL_OPERATOR, roles)
    case = {"amount": 1_260_000, "requested_by": "lee@example.com"}
    for action, email in (
        (APPROVE_REFUND, "kim@example.com"),
        (APPROVE_REFUND, "vera@example.com"),
        (REJECT_REFUND, "vera@example.com"),
    ):
        typed = refusal(local, action, approver=email.upper(), **case)
        signed_in = refusal(roles.identity_for(email), action, **case)
        assert typed is not None and signed_in is not None
        assert (typed.kind, typed.text) == (signed_in.kind, signed_in.text)
    assert refusal(LOCAL_OPERATOR, APPROVE_REFUND, approver="kim@example.com", **case) is None  # no roles file
    assert held_to_roles(roles.identity_for("kim@example.com"), roles).roles is None  # signed in: as themselves


# --- the local part of one listed email names that person; of several, no one ------------------------


def local_api(store, settings, roles: str) -> TestClient:
    """The HTTP API as the local operator (a roles file with no tokens: none is asked for) held to ``roles``."""
    without_tokens = dataclasses.replace(settings, roles=parse_roles(roles.split("[tokens]")[0]))
    return TestClient(create_app(store, without_tokens), base_url="http://127.0.0.1")


def test_the_local_part_of_a_persons_email_is_held_to_their_limit_on_every_path(
    run_cli, store, db_location, roles_file
):
    start(run_cli, "C16", 1_260_000)
    decided = run_cli("decide", "refund-C16", "--action", "approve", "--approver", "kim")
    assert decided.code == 2 and LIMIT["en"] in decided.out, decided.out
    resumed = run_cli("resume", "refund-C16", '{"action": "approve", "approver": "Kim"}')
    assert resumed.code == 2 and LIMIT["en"] in resumed.err, resumed.err
    answered = ("run", "refund", "--case", "C17", "--customer", "c", "--amount", "1260000", "--reason", "r")
    ran = run_cli(*answered, "--answer", '{"action": "approve", "approver": "kim"}')
    assert ran.code == 2 and LIMIT["en"] in ran.err, ran.err
    settings = load_settings(db_override=db_location, secrets={})
    with pytest.raises(PermissionDenied) as refused:
        runs.update_thread(store, settings, "refund-C16", {"decision": "approve", "approver": "kim"})
    assert refused.value.render("en").startswith(LIMIT["en"])
    with local_api(store, settings, ROLES) as api:
        body = {"items": ["refund-C16"], "action": "approve", "approver": "kim"}
        (result,) = api.post("/decisions", json=body).json()["results"]
    assert result["result"] == "refused" and LIMIT["en"] in result["reason"], result
    items = json.dumps([{"item": "I-1", "amount": 1_260_000}, {"item": "I-2", "amount": 200_000}])
    run_cli("run", "refund", "--case", "I1", "--customer", "c", "--reason", "r", "--items", items)
    asked = {q.value["item"]: str(q.id) for q in runs.thread_snapshot(store, settings, "refund-I1")[1].interrupts}
    item = run_cli("decide", f"refund-I1:{asked['I-1']}", "--action", "approve", "--approver", "kim")
    assert item.code == 2 and LIMIT["en"] in item.out, item.out  # an item is held to the same limit
    assert paid(store) == [] and item_ledger.item_payouts(store, "I1") == []
    start(run_cli, "S1", 900_000)  # within kim's limit: decided under the name typed
    decided = run_cli("decide", "refund-S1", "--action", "approve", "--approver", "kim")
    assert decided.code == 0 and "\tpaid" in decided.out, decided.out
    assert paid(store) == [("S1", "kim")]


#: Two listed people whose emails share their local part, "kim".
TWO_KIMS = ROLES.replace("[tokens]", '"kim@other.org" = { role = "senior_approver" }\n\n[tokens]')
AMBIGUOUS = {
    "en": "not allowed: 'kim' could be more than one person of the roles file: it is what their emails have before"
    " the @ (kim@example.com, kim@other.org); write the whole email of the one who decides",
    "ko": "허용되지 않음: 'kim'은 역할 파일의 여러 사람일 수 있습니다. 이들 이메일의 @ 앞부분과 같습니다"
    "(kim@example.com, kim@other.org). 결정하는 사람의 이메일 전체를 적으세요",
}


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_local_part_several_listed_emails_share_is_refused_as_ambiguous_on_every_path(
    run_cli, store, db_location, roles_file, lang
):
    roles_file.write_text(TWO_KIMS, encoding="utf-8")
    start(run_cli, "A1", 300_000)  # within every limit: only the name is in question
    for action in ("approve", "reject"):
        decided = run_cli("--lang", lang, "decide", "refund-A1", "--action", action, "--approver", "kim")
        assert decided.code == 2, decided.out
        said(lang, AMBIGUOUS, decided.out)
    resumed = run_cli("--lang", lang, "resume", "refund-A1", '{"action": "approve", "approver": "KIM"}')
    assert resumed.code == 2 and AMBIGUOUS[lang].replace("'kim'", "'KIM'") in resumed.err, resumed.err
    settings = load_settings(db_override=db_location, secrets={})
    with pytest.raises(PermissionDenied) as refused:
        runs.update_thread(store, settings, "refund-A1", {"decision": "approve", "approver": "kim"})
    said(lang, AMBIGUOUS, refused.value.render(lang))
    with local_api(store, settings, TWO_KIMS) as api:
        body = {"items": ["refund-A1"], "action": "approve", "approver": "kim"}
        (result,) = api.post("/decisions", json=body).json()["results"]
    assert result["result"] == "refused" and AMBIGUOUS["en"] in result["reason"], result
    assert paid(store) == []
    decided = run_cli("decide", "refund-A1", "--action", "approve", "--approver", "kim@other.org")  # the whole email
    assert decided.code == 0 and "\tpaid" in decided.out, decided.out
