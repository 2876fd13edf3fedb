"""``--lang ko``: every command's output, its errors and every ``--help`` are Korean, and ``--json`` stays as it is.

Each command is run in-process (``run_cli``) with ``--lang ko`` on a database whose threads were started in
Korean: normal output (a run, an answer, lists, the ledger, the explorer's dumps, the timeline, the roles
file, the notification status), the errors a user can cause (bad input, usage errors, refused settings),
and the help of every command and sub-command. A word of Latin letters in what they print must be a code
(an option, a command, an agent or node name, a stored code, a metavar, an id, a setting's name), or one
of the allow-list below; otherwise the test fails, naming each word and the command that printed it.
"""

from __future__ import annotations

import argparse
import io
import json
import re

import pytest

from agents.cli import build_parser
from agents.cli.base import say_count
from agents.cli.strings import STRINGS as CLI_STRINGS
from agents.notify import outbox
from agents.registry import AGENTS
from agents.runtime import open_store
from dashboard.i18n import catalogue

#: Words that may show in Korean output: product, format and protocol names, the program, its commands,
#: the agents and their nodes, stored codes, and the literals a user types (the robot's yes/no, JSON's null).
ALLOWED = {
    # products, formats, protocols, the program
    "hitl", "langgraph", "sqlite", "postgresql", "json", "csv", "toml", "iana", "utc", "http", "https", "id",
    "python", "agents", "printf", "authorization", "bearer", "en", "ko",
    # the commands (``python -m agents COMMAND``)
    "threads", "inbox", "run", "resume", "update", "continue", "delete", "inspect", "graph", "diff", "rerun",
    "ledger", "decide", "timeline", "migrate", "serve", "roles", "notify", "deletions",
    # agents and their nodes, as code
    "robot", "refund", "lecture", "propose", "approval", "execute", "assess", "review", "settle", "reject",
    "validate", "plan", "research", "write", "gate", "save", "item",
    # checkpoint sources and notification channels, as stored
    "input", "loop", "fork", "webhook", "email",
    # what a user types: the robot's answers, JSON's null
    "yes", "no", "null",
    # LangChain's message types in a decoded value (``ai: …``)
    "ai", "human",
}  # fmt: skip

#: What a user typed and the output echoes: approver names, a refused thread id, a token's label.
USER_WORDS = {"kim", "lee", "nope"}

#: A token that is code: an underscore, a digit, a bracket, ``: / = * @ < > $ %``, an inner dot or dash
#: (``__start__``, ``refund-K9``, ``kim@example.com``, ``data/checkpoints.sqlite``, ``[--json]``, ``token-hash``).
_CODE_TOKEN = re.compile(r"[_0-9\[\]{}<>:/=*@$%]|\w[.-]\w|\w\(\)")
#: An option (``--as-node``), an exception class, a metavar or an acronym (``THREAD``, ``API``).
_CODE_WORD = re.compile(r"-{1,2}\w[\w-]*|[A-Z][A-Za-z]*(?:Error|Exception)|[A-Z][A-Z_]+")
#: A quoted code without spaces (``'settle'``), and an inline JSON value (inspect's state and writes).
_CODE_SPAN = re.compile(r"'[^'\s]*'|[{\[].*[}\]]")
#: A refusal's field name (``오류: email: …``): the option, setting or state key refused, as it is spelled.
_FIELD = re.compile(r"^(?:오류: )?[\w-]+: (?=.*[가-힣])")
_JSON_LINE = re.compile(r"\s*[\"{}\[\]]")
_WORD = re.compile(r"[A-Za-z]+")


def english_words(output: str) -> set[str]:
    """The words of ``output`` that are English, outside JSON (a question's payload), codes and the allow-list."""
    found: set[str] = set()
    for line in output.splitlines():
        if _JSON_LINE.match(line):
            continue  # a line of an interrupt payload printed as JSON
        for token in _CODE_SPAN.sub(" ", _FIELD.sub("", line)).split():
            stripped = token.strip(".,;:!?\"'()")
            if not stripped or _CODE_WORD.fullmatch(stripped) or _CODE_TOKEN.search(stripped):
                continue
            for word in _WORD.findall(stripped):
                if len(word) > 1 and not word.isupper() and word.casefold() not in ALLOWED and word not in USER_WORDS:
                    found.add(word)
    return found


@pytest.fixture
def ko(run_cli):
    """``run_cli`` with ``--lang ko`` first; returns what it printed, stdout and stderr together."""

    def run(*argv: str, code: int | None = 0) -> str:
        result = run_cli("--lang", "ko", *argv)
        if code is not None:
            assert result.code == code, (argv, result.out, result.err)
        return result.out + result.err

    return run


#: State keys as the explorer's dumps show them (``pending_action: …``, ``messages = …``): codes, not words.
STATE_KEYS = {"messages", "pending_action", "decision"} | {
    field.name for spec in AGENTS.values() for field in (*spec.edit.state_fields, *spec.run.start_fields)
}


def _roles_file(tmp_path, people: int) -> str:
    users = [
        '"kim@example.com" = { role = "approver", limit_krw = 1000000 }',
        '"park@example.com" = { role = "admin" }',
    ][:people]
    tokens = [
        '"kim-script" = { sha256 = "' + "a" * 64 + '", email = "kim@example.com" }',
        '"park-script" = { sha256 = "' + "b" * 64 + '", email = "park@example.com" }',
    ][:people]
    path = tmp_path / f"roles-{people}.toml"
    path.write_text("[users]\n" + "\n".join(users) + "\n[tokens]\n" + "\n".join(tokens) + "\n", encoding="utf-8")
    return str(path)


def _korean_threads(ko) -> None:
    """Threads of every status, started in Korean through the command line itself."""
    ko("run", "robot")  # waiting
    ko("run", "robot", "--thread", "robot-done", "--answer", "yes")  # done (executed)
    ko("run", "robot", "--thread", "robot-edited")
    ko("update", "robot-edited", "--values", '{"decision": "yes"}', "--as-node", "approval")  # attention
    refund = ("--customer", "김철수", "--reason", "불량")
    ko("run", "refund", "--case", "K9", "--amount", "250000", *refund)
    ko("resume", "refund-K9", '{"action": "edit", "amount": 200000, "approver": "kim"}')  # paid
    ko("run", "refund", "--case", "K8", "--amount", "300000", *refund)  # waiting
    ko("run", "refund", "--case", "K6", "--amount", "300000", *refund)
    ko("delete", "refund-K6", "--yes", "--reason", "중복 접수")  # deleted unfinished: the audit's deletion line
    ko("run", "refund", "--case", "S1", "--amount", "5000", *refund)  # paid automatically
    items = '[{"item": "A-1", "amount": 300000}, {"item": "A-2", "amount": 200000}]'
    ko("run", "refund", "--case", "K7", "--items", items, "--customer", "박", "--reason", "파손")  # two questions


def test_every_command_speaks_korean(ko, tmp_path, monkeypatch):
    said: dict[str, str] = {}

    def check(*argv: str, code: int | None = 0, label: str = "") -> None:
        said[label or " ".join(argv)] = ko(*argv, code=code)

    empty = str(tmp_path / "empty.sqlite")
    open_store(empty).close()  # a database with nothing in it, as the dashboard's first start leaves one
    for argv in (("threads",), ("inbox",), ("ledger",), ("ledger", "--audit")):
        check(*argv, "--db", empty, label=" ".join(argv) + " (empty)")
    _korean_threads(ko)
    check("run", "robot", "--thread", "robot-2")
    check("run", "robot", "--thread", "robot-3")
    check("run", "robot", "--thread", "robot-4", "--answer", "no")
    check("resume", "robot-2", "yes")
    check("update", "robot-3", "--values", '{"decision": "yes"}', "--as-node", "approval")
    check("continue", "robot-edited")
    items = '[{"item": "B-1", "amount": 300000}, {"item": "B-2", "amount": 400000}]'
    check("run", "refund", "--case", "K5", "--items", items, "--customer", "최", "--reason", "x")
    for argv in (
        ("threads",),
        ("inbox",),
        ("inbox", "--agent", "refund"),
        ("ledger",),
        ("ledger", "--audit"),
        ("inspect", "hitl_demo"),
        ("graph", "hitl_demo"),
        ("diff", "hitl_demo"),
        ("diff", "robot-done"),
        ("timeline", "refund-K9"),
        ("notify", "--status"),
        ("roles", _roles_file(tmp_path, 1)),
        ("roles", _roles_file(tmp_path, 2)),
        ("decide", "refund-K8", "--action", "reject", "--approver", "lee"),
    ):
        check(*argv)
    monkeypatch.setenv("HITL_ROLES_FILE", _roles_file(tmp_path, 2))
    check("inbox", label="inbox (who may decide)")
    monkeypatch.delenv("HITL_ROLES_FILE")
    head = json.loads(ko("graph", "hitl_demo", "--json"))[0]["checkpoint_id"]
    check("rerun", "hitl_demo", "--checkpoint", head)
    check("inbox", "--overdue")
    check("delete", "robot-2", "--yes")
    check("token-hash", "--new", "--label", "kim", "--email", "kim@example.com", label="token-hash --new")
    token = said["token-hash --new"].split("): ", 1)[1].split()[0]  # random: not a word
    said["token-hash --new"] = said["token-hash --new"].replace(token, "TOKEN")

    # the errors a user can cause
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    for argv in (
        ("update", "hitl_demo", "--values", '{"decision": "yes"}', "--as-node", "nope"),
        ("update", "hitl_demo", "--values", '{"decision": "yes"}', "--as-node", "settle"),
        ("delete", "hitl_demo"),
        ("resume", "refund-K7", "--all", "--interrupt", "x", '{"action": "approve", "approver": "kim"}'),
        ("inspect", "nope"),
        ("timeline", "refund-K9", "--run", "zz"),
        ("migrate", "--from", str(tmp_path / "none.sqlite"), "--to", "x"),
        ("migrate", "--from", empty, "--to", "x"),
        ("notify", "--once"),
        ("notify", "--dismiss", "nope"),
        ("serve", "--host", "0.0.0.0"),
        ("token-hash",),
        ("token-hash", "--new", "--email", "not-an-email"),
        ("decide", "nope", "--action", "approve", "--approver", "kim"),
        ("run", "refund", "--case", "K1", "--customer", "김", "--amount", "-5", "--reason", "x"),
    ):
        check(*argv, code=2)
    for setting, value in (
        ("HITL_SLA", "refund=0s"),
        ("HITL_SLA", "refund"),
        ("HITL_SLA", "nobody=1h"),
        ("HITL_SLA", "refund=1h,refund=2h"),
        ("HITL_TIMEZONE", "Nowhere/Nope"),
        ("HITL_LIVE_REFRESH", "0.1"),
        ("HITL_LIVE_REFRESH", "fast"),
        ("HITL_DB_BUSY_TIMEOUT", "-1"),
    ):
        monkeypatch.setenv(setting, value)
        check("threads", code=2, label=f"{setting}={value}")
        monkeypatch.delenv(setting)
    monkeypatch.setenv("HITL_API_TOKEN", "a-token")
    monkeypatch.setenv("HITL_API_CORS_ORIGINS", "*")
    check("threads", code=2, label="HITL_API_CORS_ORIGINS=*")
    monkeypatch.delenv("HITL_API_CORS_ORIGINS")
    monkeypatch.delenv("HITL_API_TOKEN")
    for argv in (
        ("nope",),
        ("run",),
        ("run", "nope"),
        ("resume",),
        ("threads", "--bogus"),
        ("threads", "--agent", " "),
        ("threads", "--lang", "fr"),
        ("notify",),
        ("notify", "--once", "--watch"),
        ("notify", "--watch", "--interval", "100"),
        ("notify", "--watch", "--interval", "soon"),
        ("serve", "--port", "0"),
        ("decide", "refund-K8", "--action", "maybe", "--approver", "kim"),
        ("rerun", "hitl_demo"),
    ):
        check(*argv, code=2)

    english = {command: words for command, out in said.items() if (words := english_words(out) - STATE_KEYS)}
    assert not english, "English in the Korean output:\n" + "\n".join(f"{k}: {sorted(v)}" for k, v in english.items())


def _command_paths(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command and sub-command of the parser (``()``, ``("run",)``, ``("run", "robot")``, …)."""
    found = [path]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += _command_paths(sub, (*path, name))
    return found


@pytest.mark.parametrize("path", _command_paths(build_parser()), ids=lambda path: " ".join(path) or "(top)")
def test_every_help_is_korean(ko, path):
    shown = ko(*path, "--help")
    assert shown.startswith("사용법: python -m agents")
    assert not english_words(shown), shown


def test_help_is_korean_whichever_way_the_language_is_given(run_cli, monkeypatch):
    after = run_cli("threads", "--help", "--lang", "ko")  # --lang after --help: still known first
    assert after.code == 0 and "스레드 목록" in run_cli("--lang=ko", "--help").out and "옵션:" in after.out
    monkeypatch.setenv("HITL_LANG", "ko")
    assert "옵션:" in run_cli("threads", "--help").out
    assert "options:" in run_cli("--lang", "en", "threads", "--help").out


def test_a_refused_setting_is_said_in_the_language_of_hitl_lang(run_cli, monkeypatch):
    monkeypatch.setenv("HITL_LANG", "ko")
    monkeypatch.setenv("HITL_SLA", "refund=0s")
    refused = run_cli("threads")
    assert refused.code == 2
    assert refused.err.startswith("오류: HITL_SLA: refund: 기한은 0보다 큰 정수와 단위")


def test_english_stays_as_it_was(run_cli, monkeypatch):
    monkeypatch.setenv("HITL_SLA", "refund=0s")
    refused = run_cli("threads")
    assert refused.err == (
        "error: HITL_SLA: refund: a deadline is a whole number above 0 and a unit s, m, h or d; got '0s'\n"
    )
    monkeypatch.delenv("HITL_SLA")
    usage = run_cli("threads", "--agent", "")
    assert "python -m agents threads: error: argument --agent: is empty; give a value" in usage.err
    assert usage.err.startswith("usage: python -m agents threads")
    run_cli("run", "robot")
    assert run_cli("threads").out.split("\t")[2] == "waiting"
    assert run_cli("inbox").out.split("\t")[2:4] == ["waiting", "answer"]
    as_node = run_cli("update", "hitl_demo", "--values", '{"decision": "yes"}', "--as-node", "nope")
    assert as_node.err == "error: as_node: an update cannot be made as 'nope'; allowed: propose, approval, execute\n"


#: The ``--json`` documents whose every field but a reason (in the reader's language by design) is a code.
JSON_COMMANDS = (
    ("threads",),
    ("inbox",),
    ("ledger",),
    ("ledger", "--audit"),
    ("graph", "refund-K9"),
    ("diff", "refund-K9"),
    ("timeline", "refund-K9"),
    ("inspect", "refund-K9"),
    ("notify", "--status"),
)


def _without_reasons(value):
    if isinstance(value, dict):
        return {key: _without_reasons(item) for key, item in value.items() if key != "reason"}
    if isinstance(value, list):
        return [_without_reasons(item) for item in value]
    return value


def test_json_output_is_the_same_in_korean(run_cli, ko):
    _korean_threads(ko)
    for argv in JSON_COMMANDS:
        english, korean = run_cli(*argv, "--json"), run_cli("--lang", "ko", *argv, "--json")
        assert english.code == korean.code and english.err == korean.err == ""
        assert _without_reasons(json.loads(korean.out)) == _without_reasons(json.loads(english.out)), argv


def test_a_count_of_one_is_singular_in_english(run_cli, tmp_path):
    one, two = run_cli("roles", _roles_file(tmp_path, 1)).out, run_cli("roles", _roles_file(tmp_path, 2)).out
    assert ": 1 person, 1 API token\n" in one and ": 2 people, 2 API tokens\n" in two
    assert "kim@example.com: approver, limit 1,000,000 KRW" in one
    korean = run_cli("--lang", "ko", "roles", _roles_file(tmp_path, 1)).out
    assert ": 사람 1명, HTTP 접근 토큰 1개\n" in korean and "kim@example.com: 승인자, 한도 1,000,000원" in korean


@pytest.mark.parametrize(
    ("attempts", "english", "korean"), [(1, "1 attempt,", "시도 1회,"), (2, "2 attempts,", "시도 2회,")]
)
def test_a_failing_notifications_attempts_are_counted_in_words(run_cli, monkeypatch, attempts, english, korean):
    failing = [("waiting:refund-F1:x", "webhook", attempts, "HTTP 500", 0.0)]
    monkeypatch.setattr(outbox, "status", lambda store: outbox.OutboxStatus(delivered=2, pending=1, failing=failing))
    shown = run_cli("notify", "--status")
    assert shown.code == 3
    assert f"  waiting:refund-F1:x (webhook): {english} next at 1970-01-01T00:00:00+00:00: HTTP 500" in shown.out
    assert "delivered 2, pending 1, failing 1" in shown.out
    assert korean in run_cli("--lang", "ko", "notify", "--status").out


def test_every_count_has_its_singular_and_its_plural():
    counted = {key.rsplit(".", 1)[0] for key in CLI_STRINGS if key.endswith((".one", ".other"))}
    for key in counted:
        assert CLI_STRINGS[f"{key}.one"][0] != CLI_STRINGS[f"{key}.other"][0], key
    assert say_count("cli.graph.lanes", 1, "en") == "1 lane" and say_count("cli.graph.lanes", 3, "en") == "3 lanes"
    assert say_count("cli.diff.left_out", 1, "en") == "writes of the 1 older step on the way are not listed"


def test_the_command_lines_words_for_codes_are_the_dashboards():
    # A status, outcome, decision or role reads the same in the terminal as on the pages.
    pages = catalogue()
    for key, (_english, korean) in CLI_STRINGS.items():
        kind, _, code = key.removeprefix("cli.").partition(".")
        page_key = {"status": "status.", "outcome": "outcome.", "decision": "decision.", "role": "auth.role."}.get(kind)
        if page_key is not None and page_key + code in pages:
            assert korean == pages[page_key + code][1], key


def test_the_command_lines_catalogue_has_both_languages_and_fits_its_particles():
    for key, (english, korean) in CLI_STRINGS.items():
        assert english.strip() and korean.strip(), key
        assert set(re.findall(r"\{(\w+)", english)) == set(re.findall(r"\{(\w+)", korean)), key
