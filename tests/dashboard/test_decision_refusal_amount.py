"""An edit's refusal is said by its controls while they hold the amount it refused, and by no place once they
hold another (the controls then check that amount as any other)."""

from __future__ import annotations

from typing import Any

from dashboard.decision_view import note_refused_by, refusal, refused_here

KEY = "refused"


def test_an_edits_refusal_is_said_while_its_amount_is_held_and_nowhere_after():
    state: dict[str, Any] = {KEY: ("t1", "Nothing was done: got '1e9'")}
    note_refused_by(state, KEY, "case-edit", "1e9")
    assert refused_here(state, KEY, "t1", "case-{}") is None  # not the approve / reject buttons'
    assert refused_here(state, KEY, "t1", "case-edit", "1e9") == "Nothing was done: got '1e9'"
    assert refusal(state, KEY, "t1") is None  # said by the edit box already
    assert refused_here(state, KEY, "t1", "case-edit", "-1") is None  # another amount typed since
    assert refusal(state, KEY, "t1") is None  # ... and not said elsewhere instead


def test_a_buttons_refusal_holds_no_amount():
    state: dict[str, Any] = {KEY: ("t1", "Nothing was done: no")}
    note_refused_by(state, KEY, "case-{}")
    assert refused_here(state, KEY, "t1", "case-{}") == "Nothing was done: no"
