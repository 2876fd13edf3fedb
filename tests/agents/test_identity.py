"""Identities and the roles file: a bad file is refused naming its line, tokens are matched by hash
only, and :func:`agents.identity.denial` gives each role exactly its rights."""

from __future__ import annotations

import pytest

from agents.errors import PermissionDenied
from agents.identity import (
    ACTIONS,
    ADMIN,
    APPROVER,
    DELETE_THREAD,
    LOCAL_OPERATOR,
    SENIOR_APPROVER,
    VIEWER,
    Identity,
    check_allowed,
    denial,
    token_hash,
)
from agents.refund.permissions import APPROVE_REFUND, REJECT_REFUND
from agents.roles_file import RolesFileError, load_roles, parse_roles
from agents.runtime import load_settings
from agents.settings import roles_setting

GOOD = f"""# who may do what
[users]
"kim@example.com" = {{ role = "approver", limit_krw = 1_000_000, name = "Kim Minji" }}
"park@example.com" = {{ role = "senior_approver" }}

[users."admin@example.com"]
role = "admin"

[tokens]
"kim-script" = {{ sha256 = "{token_hash("secret-token-1")}", email = "kim@example.com" }}
"nobody" = {{ sha256 = "{token_hash("secret-token-2")}", email = "ghost@example.com", name = "CI" }}
"""


def test_a_good_file_maps_emails_and_token_hashes_to_identities():
    roles = parse_roles(GOOD)
    assert roles.identity_for("kim@example.com", "Kim") == Identity("kim@example.com", "Kim", APPROVER, 1_000_000)
    assert roles.identity_for("Park@Example.com").role == SENIOR_APPROVER
    assert roles.identity_for("admin@example.com").role == ADMIN
    assert roles.identity_for("kim@example.com").name == "Kim Minji"  # the file's name when sign-in gives none
    assert roles.identity_for("who@example.com", "Who") == Identity("who@example.com", "Who", VIEWER)
    by_token = roles.identity_for_token("secret-token-1")
    assert by_token is not None and (by_token.email, by_token.role, by_token.limit_krw) == (
        "kim@example.com",
        APPROVER,
        1_000_000,
    )
    ghost = roles.identity_for_token("secret-token-2")
    assert ghost is not None and (ghost.role, ghost.name) == (VIEWER, "CI")  # a token of nobody listed: a viewer
    assert roles.identity_for_token("secret-token-3") is None
    assert roles.identity_for_token("") is None
    assert "secret-token-1" not in repr(roles)  # the file holds hashes only


BAD_FILES = [
    ('[users]\n"kim@example.com" = { role = "boss" }\n', 2, "must be one of viewer, approver"),
    ('[users]\n\n"kim@example.com" = { role = "approver" }\n', 3, "an approver needs a limit"),
    ('[users]\n"kim@example.com" = { role = "approver", limit_krw = 0 }\n', 2, "at least 1"),
    ('[users]\n"kim@example.com" = { role = "approver", limit_krw = true }\n', 2, "an approver needs a limit"),
    ('[users]\n"a@b.c" = { role = "viewer" }\n"p@b.c" = { role = "admin", limit_krw = 5 }\n', 3, "only an approver"),
    ('[users]\n"a@b.c" = { role = "viewer", colour = "red" }\n', 2, "is not a known key"),
    ('[users]\n"not an email" = { role = "viewer" }\n', 2, "must be an email address"),
    ('[users]\n"' + "a" * 243 + '@example.com" = { role = "viewer" }\n', 2, "is 255 characters long; an email"),
    ('[tokens]\n"t" = { sha256 = "' + "a" * 64 + '", email = "' + "a" * 243 + '@example.com" }\n', 2, "the email"),
    ('[users]\n"a@b.c" = "viewer"\n', 2, "must be a table"),
    ('[users]\n"a@b.c" = { role = "viewer" }\n"A@B.C" = { role = "admin" }\n', 3, "listed twice"),
    ('[users."x@y.z"]\nrole = "viewer"\nname = 5\n', 3, "must be text"),
    ("# c\n[groups]\n", 2, "is not a known section"),
    ("users = 3\n", 1, "must be a table of entries"),
    ('[tokens]\n"t" = { sha256 = "secret-token", email = "a@b.c" }\n', 2, "never the token itself"),
    ('[tokens]\n"t" = { sha256 = "' + "a" * 64 + '" }\n', 2, "must be the email the token acts for"),
    (
        '[tokens]\n"t" = { sha256 = "' + "a" * 64 + '", email = "a@b.c" }\n"u" = { sha256 = "' + "A" * 64 + '", '
        'email = "a@b.c" }\n',
        3,
        "same hash as another token",
    ),
    ('[users]\n"a@b.c" = { role = "viewer" \n', 2, "not valid TOML"),
]


@pytest.mark.parametrize(("text", "line", "message"), BAD_FILES)
def test_a_bad_file_is_refused_naming_the_line(text, line, message, tmp_path):
    path = tmp_path / "roles.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RolesFileError) as refused:
        load_roles(path)
    assert refused.value.line == line, str(refused.value)
    assert f"{path}, line {line}:" in str(refused.value)
    assert message in str(refused.value)


def test_the_roles_setting_names_a_file_which_must_exist(tmp_path):
    path = tmp_path / "mine.toml"
    with pytest.raises(RolesFileError, match="cannot be read"):
        load_settings(environ={"HITL_ROLES_FILE": str(path)}, secrets={})
    path.write_text(GOOD, encoding="utf-8")
    loaded = load_settings(environ={"HITL_ROLES_FILE": str(path)}, secrets={}).roles
    assert loaded is not None and loaded.identity_for("park@example.com").role == SENIOR_APPROVER
    assert roles_setting({}, default=tmp_path / "absent.toml") is None  # no file: no roles (local mode)
    assert roles_setting({}, default=path) is not None


def test_a_bad_roles_file_stops_every_command_at_start(run_cli, use_roles):
    path = use_roles('[users]\n"a@b.c" = { role = "viewer" }\n"k@b.c" = { role = "approver" }\n')
    result = run_cli("threads")
    assert result.code == 2
    assert f"{path}, line 3" in result.err and "an approver needs a limit" in result.err


def test_the_commands_make_a_token_entry_and_check_the_file(run_cli, tmp_path, monkeypatch):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("my-token\n"))
    made = run_cli("token-hash", "--label", "kim", "--email", "kim@example.com")
    assert made.code == 0 and token_hash("my-token") in made.out and "my-token" not in made.out
    path = tmp_path / "roles.toml"
    path.write_text(GOOD + "\n" + made.out.replace('"kim"', '"kim-2"'), encoding="utf-8")
    assert parse_roles(path.read_text()).identity_for_token("my-token").email == "kim@example.com"
    checked = run_cli("roles", str(path))
    assert checked.code == 0 and "kim@example.com: approver, limit 1,000,000 KRW" in checked.out


#: Which roles may take each action (an approval here within the limit, by someone else).
RIGHTS = {
    "start_run": {APPROVER, SENIOR_APPROVER, ADMIN},
    "answer": {APPROVER, SENIOR_APPROVER, ADMIN},
    "approve_refund": {APPROVER, SENIOR_APPROVER, ADMIN},
    "reject_refund": {APPROVER, SENIOR_APPROVER, ADMIN},
    "continue": {APPROVER, SENIOR_APPROVER, ADMIN},
    "update_state": {ADMIN},
    "fork": {ADMIN},
    "rerun": {ADMIN},
    "restore": {ADMIN},
    "delete_thread": {ADMIN},
    "see_settings": {ADMIN},
}


@pytest.mark.parametrize("action", sorted(ACTIONS))
@pytest.mark.parametrize("role", [VIEWER, APPROVER, SENIOR_APPROVER, ADMIN])
def test_each_role_has_exactly_its_rights(role, action):
    who = Identity(f"{role}@example.com", role, role, 1_000 if role == APPROVER else None)
    reason = denial(who, action, amount=1_000, requested_by="other@example.com")
    assert (reason == "") == (role in RIGHTS[action]), reason
    assert denial(LOCAL_OPERATOR, action, amount=10**9, requested_by="") == ""


def test_the_limit_and_four_eyes_are_reasons():
    kim = Identity("kim@example.com", "Kim", APPROVER, 1_000_000)
    assert denial(kim, APPROVE_REFUND, amount=1_000_000) == ""
    with pytest.raises(PermissionDenied) as refused:
        check_allowed(kim, APPROVE_REFUND, amount=1_000_001)
    assert refused.value.reason.startswith("your limit is 1,000,000 KRW; this case pays 1,000,001 KRW")
    assert "needs a senior approver" in refused.value.reason and refused.value.action == APPROVE_REFUND
    assert denial(kim, REJECT_REFUND) == ""
    assert "four eyes" in denial(kim, APPROVE_REFUND, amount=1, requested_by="KIM@example.com")
    senior = Identity("park@example.com", "Park", SENIOR_APPROVER)
    assert denial(senior, APPROVE_REFUND, amount=10**9) == ""
    assert "needs an admin" in denial(senior, DELETE_THREAD)
    with pytest.raises(ValueError, match="unknown role"):
        Identity("x@y.z", "x", "owner")
    with pytest.raises(ValueError, match="unknown action"):
        denial(kim, "pay")


def test_the_example_roles_file_is_valid_and_its_token_line_is_the_hash_it_says():
    from tests.conftest import PROJECT_ROOT

    roles = load_roles(PROJECT_ROOT / ".streamlit" / "roles.example.toml")
    assert roles.identity_for("kim@example.com").limit_krw == 1_000_000
    found = roles.identity_for_token("example-token-do-not-use")
    assert found is not None and found.email == "kim@example.com"
