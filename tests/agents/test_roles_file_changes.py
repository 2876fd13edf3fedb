"""A roles file edited while the dashboard, ``serve`` or a deliverer runs: the edit applies from their next
rerun, request or pass, without a restart (``agents.roles_file.current_roles``), and an edit gone wrong is
refused as at start, so the rights it meant to take away are never left in force. The pages:
``tests/dashboard/test_signed_in_pages.py``; ``serve``: ``tests/api/test_api_roles_file_changes.py``; a
deliverer: ``tests/agents/notify/test_notify_roles_file_changes.py``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from agents.roles_file import RolesFileError, current_roles, load_roles, parse_roles
from agents.settings import current_settings
from tests.factories import edit

KIM_APPROVES = '[users]\n"kim@example.com" = { role = "approver", limit_krw = 1_000_000 }\n'
LEE_APPROVES = '[users]\n"lee@example.com" = { role = "approver", limit_krw = 1_000_000 }\n'


def test_the_same_roles_while_the_file_is_unchanged_and_the_file_read_again_once_edited(
    use_roles: Callable[[str], Path],
) -> None:
    path = use_roles(KIM_APPROVES)
    roles = load_roles(path)
    assert current_roles(roles) is roles
    edit(path, LEE_APPROVES)
    edited = current_roles(roles)
    assert edited is not None and edited is not roles
    assert edited.identity_for("kim@example.com").role == "viewer"
    assert edited.identity_for("lee@example.com").role == "approver"
    assert current_roles(roles) is edited  # read once, then kept while the file stays as it is
    assert current_roles(edited) is edited


def test_an_edit_gone_wrong_or_a_removed_file_is_refused_naming_it_until_put_right(
    use_roles: Callable[[str], Path],
) -> None:
    path = use_roles(KIM_APPROVES)
    roles = load_roles(path)
    edit(path, KIM_APPROVES + '"lee@example.com" = { role = "approver", limit_krw = "lots" }\n')
    with pytest.raises(RolesFileError, match=r"line 3") as wrong:
        current_roles(roles)
    assert str(path) in str(wrong.value)
    path.unlink()
    with pytest.raises(RolesFileError, match="cannot be read"):
        current_roles(roles)
    path.write_text(LEE_APPROVES, encoding="utf-8")
    put_right = current_roles(roles)
    assert put_right is not None and put_right.identity_for("lee@example.com").role == "approver"


def test_roles_given_as_text_and_no_roles_stay_as_they_are(settings) -> None:
    given = parse_roles(KIM_APPROVES)
    assert current_roles(given) is given and current_roles(None) is None
    assert current_settings(settings) is settings  # no roles file
