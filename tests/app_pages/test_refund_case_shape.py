"""The refund case panel draws the same elements, at the same places, whatever amount is typed.

A run of the case panel (a fragment) removes what the run before drew only by drawing over it:
Streamlit drops the elements a fragment's run left out only when that run's end reaches the browser
as a fragment run's end, and a live part's run that starts before it is sent turns it into "stopped
for a rerun". A refusal drawn for a bad amount must therefore sit in a place every run draws, or it
outlives the amount it refused (tests/browser/test_live_case_flow.py sees that in a browser).
"""

from __future__ import annotations

from typing import Any

from tests.factories import start_refund

PAGE = "app_pages/refund.py"
AMOUNT_KEY = "refund-edit-amount-refund-C1"


def _places(node: Any, path: tuple[int, ...] = ()) -> set[tuple[int, ...]]:
    """The delta path of every element drawn under ``node``."""
    children = getattr(node, "children", None)
    if not isinstance(children, dict):
        return {path}
    return set().union(*(_places(child, (*path, index)) for index, child in children.items())) or {path}


def _drawn_for(at: Any, typed: str) -> tuple[set[tuple[int, ...]], str]:
    at.text_input(key=AMOUNT_KEY).input(typed).run()
    assert not at.exception, at.exception
    return _places(at.main), " ".join(error.value for error in at.error)


def test_every_typed_amount_draws_the_case_panel_in_the_same_places(app, store, settings):
    start_refund(store, settings, "C1", 500_000)
    at = app(PAGE)
    at.text_input(key="refund-approver").input("kim").run()
    refused, refusal = _drawn_for(at, "0")
    assert "Cannot edit to this amount" in refusal
    over, _ = _drawn_for(at, "500,001")
    accepted, none = _drawn_for(at, "50,000")
    assert none == ""
    assert any(metric.label == "After the edit" for metric in at.metric)
    empty, _ = _drawn_for(at, "")
    assert refused == over == accepted == empty
