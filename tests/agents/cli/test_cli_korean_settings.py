"""A setting refused at start is said in Korean with ``--lang ko``: the HTTP API's, the notifications', the
roles file's, and ``migrate``'s refusals, each with its own catalogue text; the English is what it was.

Each case runs the real command line in-process (``run_cli``) with one bad setting, and fails on any English
word outside codes (``tests/agents/cli/test_cli_korean.py``'s rule), naming the case.
"""

from __future__ import annotations

import re

import pytest

from agents.migrate import MigrationError, migrate
from agents.runtime import open_store
from tests.agents.cli.test_cli_korean import english_words

#: A roles file's refusal names the file, the line and the entry (``tokens."ci".sha``), all code, before its words.
_ROLES_ENTRY = re.compile(r"^오류: 역할 파일 [^,:]+(?:, \d+번째 줄)?: \S+: ")

#: Codes these refusals quote: the roles file's sections, keys and role values, and the name of a client.
CODES = {"users", "tokens", "role", "name", "viewer", "approver", "admin", "Agent"}

_SHA = "a" * 64
#: ``(case, {setting: value}, English start, Korean start)``; a value ``ROLES:<text>`` is written to a roles file.
SETTINGS = [
    ("cors alone", {"HITL_API_CORS_ORIGINS": "*,http://a.example"}, "'*' (every origin) stands alone", "'*'(모든"),
    ("cors path", {"HITL_API_CORS_ORIGINS": "http://a.example/x"}, "'http://a.example/x' is not an origin", "출처가"),
    ("cors script", {"HITL_API_CORS_ORIGINS": "http://bücher.example"}, "xn--", "퓨니코드"),
    ("approver reserved", {"HITL_LOCAL_APPROVER": "automatic"}, "'automatic' is reserved", "스스로 기록할 때"),
    ("approver lines", {"HITL_LOCAL_APPROVER": "a\nb"}, "must be a name of at most", "한 줄로 된"),
    ("approver and roles", {"HITL_LOCAL_APPROVER": "kim", "HITL_ROLES_FILE": "ROLES:"}, "names the approver", "로컬"),
    ("webhook", {"HITL_NOTIFY_WEBHOOK": "ftp://x.example"}, "must be an http:// or https:// URL", "호스트가 있는"),
    ("login pair", {"HITL_NOTIFY_SMTP_USER": "kim"}, "a login needs both", "로그인에는"),
    ("login ascii", {"HITL_NOTIFY_SMTP_USER": "김", "HITL_NOTIFY_SMTP_PASSWORD": "p"}, "must be ASCII", "SMTP 로그인"),
    (
        "login server",
        {"HITL_NOTIFY_SMTP_USER": "k", "HITL_NOTIFY_SMTP_PASSWORD": "p"},
        "is needed with a login",
        "서버",
    ),
    ("plain password", {"HITL_NOTIFY_SMTP": "smtp://k:p@mail.example:25"}, "sends a password only", "비밀번호는"),
    ("ca file", {"HITL_NOTIFY_SMTP_CA": "/nonexistent/ca.pem"}, "names no file", "파일이 없습니다"),
    ("from needed", {"HITL_NOTIFY_SMTP": "smtp://localhost:25"}, "is needed with HITL_NOTIFY_SMTP", "보내는 주소"),
    ("not email", {"HITL_NOTIFY_TO": "nobody"}, "'nobody' is not an email address", "이메일 주소가 아닙니다"),
    ("public url", {"HITL_PUBLIC_URL": "ftp://x"}, "must be an http:// or https:// address", "주소여야"),
    ("smtp url", {"HITL_NOTIFY_SMTP": "mail.example"}, "write smtp://host:port", "쓰세요"),
    ("smtp url login", {"HITL_NOTIFY_SMTP": "smtp://k:p@x"}, "got a URL with a login", "로그인이 든 URL"),
    ("smtp option", {"HITL_NOTIFY_SMTP": "smtp://x:25?tls=1"}, "takes one option", "옵션은"),
    ("smtps starttls", {"HITL_NOTIFY_SMTP": "smtps://x:465?starttls=1"}, "encrypted from the start", "처음부터"),
    ("smtp user", {"HITL_NOTIFY_SMTP": "smtp://:p@x:25"}, "a login in the URL is", "URL의 로그인은"),
    ("roles section", {"HITL_ROLES_FILE": "ROLES:[groups]\n"}, "groups: is not a known section", "알 수 없는 섹션"),
    ("roles table", {"HITL_ROLES_FILE": "ROLES:users = 1\n"}, "users: must be a table of entries", "항목들의"),
    ("roles email", {"HITL_ROLES_FILE": 'ROLES:[users]\nkim = { role = "admin" }\n'}, "must be an email", "이메일"),
    (
        "roles email length",
        {"HITL_ROLES_FILE": 'ROLES:[users]\n"' + "k" * 300 + '@x.example" = { role = "admin" }\n'},
        "characters long",
        "자입니다",
    ),
    ("roles user", {"HITL_ROLES_FILE": 'ROLES:[users]\n"a@b.c" = "viewer"\n'}, "must be a table, e.g.", "테이블이어야"),
    ("roles key", {"HITL_ROLES_FILE": 'ROLES:[users]\n"a@b.c" = { rol = 1 }\n'}, "is not a known key", "알 수 없는 키"),
    ("roles role", {"HITL_ROLES_FILE": 'ROLES:[users]\n"a@b.c" = { role = "boss" }\n'}, "must be one of", "중 하나"),
    ("roles limit", {"HITL_ROLES_FILE": 'ROLES:[users]\n"a@b.c" = { role = "approver" }\n'}, "needs a limit", "한도가"),
    (
        "roles limit of a viewer",
        {"HITL_ROLES_FILE": 'ROLES:[users]\n"a@b.c" = { role = "viewer", limit_krw = 5 }\n'},
        "only an approver has a limit",
        "한도는 승인자만",
    ),
    ("roles name", {"HITL_ROLES_FILE": 'ROLES:[users]\n"a@b.c" = { role = "admin", name = 1 }\n'}, "text", "텍스트"),
    (
        "roles twice",
        {"HITL_ROLES_FILE": 'ROLES:[users]\n"a@b.c" = { role = "admin" }\n"A@b.c" = { role = "admin" }\n'},
        "is listed twice",
        "두 번",
    ),
    (
        "roles token",
        {"HITL_ROLES_FILE": 'ROLES:[tokens]\nci = "x"\n'},
        "must be a table, e.g. { sha256",
        "테이블이어야",
    ),
    (
        "roles token key",
        {"HITL_ROLES_FILE": "ROLES:[tokens]\nci = { sha = 1 }\n"},
        "is not a known key",
        "쓸 수 있는 키",
    ),
    (
        "roles token hash",
        {"HITL_ROLES_FILE": 'ROLES:[tokens]\nci = { sha256 = "abc", email = "a@b.c" }\n'},
        "SHA-256 as 64 hex digits",
        "16진수 64자리",
    ),
    (
        "roles token email",
        {"HITL_ROLES_FILE": f'ROLES:[tokens]\nci = {{ sha256 = "{_SHA}", email = "x" }}\n'},
        "the email the token acts for",
        "대신하는",
    ),
    (
        "roles same hash",
        {
            "HITL_ROLES_FILE": f'ROLES:[tokens]\nci = {{ sha256 = "{_SHA}", email = "a@b.c" }}\n'
            f'cd = {{ sha256 = "{_SHA}", email = "a@b.c" }}\n'
        },
        "has the same hash as another token",
        "해시가 같습니다",
    ),
]


def _set(monkeypatch: pytest.MonkeyPatch, tmp_path, values: dict[str, str]) -> None:
    for name, value in values.items():
        if value.startswith("ROLES:"):
            roles = tmp_path / "roles.toml"
            roles.write_text(value.removeprefix("ROLES:") or '[users]\n"a@b.c" = { role = "admin" }\n', "utf-8")
            value = str(roles)
        monkeypatch.setenv(name, value)


@pytest.mark.parametrize(("values", "english", "korean"), [case[1:] for case in SETTINGS], ids=[c[0] for c in SETTINGS])
def test_a_refused_setting_is_said_in_korean_and_in_english_as_before(
    run_cli, monkeypatch, tmp_path, values, english, korean
):
    _set(monkeypatch, tmp_path, values)
    said = run_cli("--lang", "en", "threads")
    assert said.code == 2 and english in said.err, said.err
    said = run_cli("--lang", "ko", "threads")
    assert said.code == 2 and korean in said.err, said.err
    assert not english_words(_ROLES_ENTRY.sub("", said.err)) - CODES, said.err


@pytest.mark.parametrize(
    ("source", "korean"),
    [("not = [toml", "올바른 TOML이 아닙니다"), (None, "읽을 수 없습니다")],
    ids=["not toml", "unreadable"],
)
def test_a_roles_file_that_cannot_be_read_is_said_in_korean_with_the_readers_own_detail(
    run_cli, monkeypatch, tmp_path, source, korean
):
    path = tmp_path / "roles.toml"
    if source is None:
        path.mkdir()  # a directory: reading it fails with the system's own words, which follow the colon
    else:
        path.write_text(source, "utf-8")
    monkeypatch.setenv("HITL_ROLES_FILE", str(path))
    said = run_cli("--lang", "ko", "threads")
    assert said.code == 2 and said.err.startswith(f"오류: 역할 파일 {path}") and korean in said.err, said.err


def test_a_migration_refusal_carries_its_korean_text(tmp_path):
    source, target = open_store(str(tmp_path / "a.sqlite")), open_store(str(tmp_path / "b.sqlite"))
    try:
        with pytest.raises(MigrationError) as refused:
            migrate(source, target)  # two SQLite files: migrate only copies SQLite into PostgreSQL
    finally:
        source.close()
        target.close()
    assert str(refused.value) == "migrate copies a SQLite file into a PostgreSQL database"
    assert refused.value.text.render("ko") == "migrate는 SQLite 파일을 PostgreSQL 데이터베이스로 복사합니다"
