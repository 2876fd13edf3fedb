"""A deliverer that runs for days mails whoever the roles file names at each pass, an edit of it included."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

from agents import runs
from agents.identity import Identity
from agents.notify.deliverer import Deliverer
from agents.roles_file import load_roles
from tests.agents.notify.conftest import notifying
from tests.factories import edit

KIM_APPROVES = '[users]\n"kim@example.com" = { role = "approver", limit_krw = 1_000_000 }\n'
LEE_APPROVES = KIM_APPROVES.replace("kim@", "lee@")
RITA = Identity(email="rita@example.com", name="Rita", role="approver", limit_krw=5_000_000)


def test_a_running_deliverer_mails_whoever_the_edited_file_names(
    store, settings, use_roles: Callable[[str], Path], mailbox
) -> None:
    box, port = mailbox
    path = use_roles(KIM_APPROVES)
    mailing = notifying(settings, HITL_NOTIFY_SMTP=f"smtp://127.0.0.1:{port}", HITL_NOTIFY_FROM="hitl@example.com")
    deliverer = Deliverer(store, dataclasses.replace(mailing, roles=load_roles(path)))
    values = {"customer": "c", "amount": 300_000, "reason": "r"}
    runs.start_run(store, mailing, "refund", {"case_id": "K1", **values}, actor=RITA)
    deliverer.run_once()
    assert [sorted(to) for to, _mail in box.wait_for(1)] == [["kim@example.com"]]
    edit(path, LEE_APPROVES)
    runs.start_run(store, mailing, "refund", {"case_id": "L1", **values}, actor=RITA)
    deliverer.run_once()
    assert [sorted(to) for to, _mail in box.wait_for(2)][1:] == [["lee@example.com"]]
