"""A click refused on a stale refund case stays explained: the case panel's next run (a live part's tick,
typing) still says why nothing was done, also when the case was decided elsewhere and the panel draws no
controls any more. The runs here are the panel's own (its fragment alone), as the browser's ticks are:
the page's own run draws the case afresh and forgets the refusal."""

from __future__ import annotations

from typing import Any

from streamlit.testing.v1 import AppTest

from agents import runs
from tests.factories import button_by_key, start_refund

THREAD = "refund-C15"


def _case_panel(store, settings) -> None:
    """The refund page's case panel alone: what each of its live runs draws (run as a script of its own,
    without this module's imports)."""
    from app_pages.refund_case import show_case_panel

    show_case_panel(store, settings)


def _refusals(at: Any) -> list[str]:
    return [error.value for error in at.error if "Nothing was done" in error.value]


def test_a_stale_click_refused_stays_explained_after_the_panels_next_run(store, settings):
    start_refund(store, settings, "C15", 500_000)
    at = AppTest.from_function(_case_panel, args=(store, settings), default_timeout=60).run()
    assert not at.exception, at.exception
    at.text_input(key="refund-approver").input("park").run()
    runs.resume_from_fields(store, settings, THREAD, {"action": "approve", "approver": "lee"})  # another tab
    at.run()  # the panel's tick: the case moved on, its controls stay with a notice
    assert any("changed since your controls were drawn" in warning.value for warning in at.warning)

    button_by_key(at, "refund-reject").click().run()
    assert not at.exception, at.exception
    refused = _refusals(at)
    assert refused and "changed since this form was drawn" in refused[0], refused

    at.run()  # the panel's next tick: the case as it is, decided, with no controls ...
    assert not any(button.key == "refund-reject" for button in at.button)
    assert any("Outcome: paid" in success.value for success in at.success)
    assert _refusals(at) == refused  # ... and still the reason nothing was done
    at.run()  # and the tick after it
    assert _refusals(at) == refused
