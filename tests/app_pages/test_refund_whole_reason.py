"""AppTest for a waiting refund's long reason: cut in its headline, shown whole in the same place by one switch
and cut again, once on the page's headline, for the case it was turned on for only."""

from __future__ import annotations

from tests.factories import start_refund

PAGE = "app_pages/refund.py"
LONG_REASON = (
    "The parcel arrived two weeks late, the outer box was crushed, two of the three ceramic cups inside were"
    " broken and the customer had already paid for express delivery, which the courier did not honour; the"
    " customer asks for the whole order back including shipping."
)
#: A part of the reason past the headline's cut.
LATE_PART = "which the courier did not honour"
LABEL = f"Show the whole reason ({len(LONG_REASON)} characters)"


def _headline(at) -> str:
    """The warning that says the case waits, with its summary."""
    return next(w.value for w in at.warning if "Waiting for an approver." in w.value)


def _switch(at, case: str):
    """The switch that shows ``case``'s reason whole."""
    return at.toggle(key=f"refund-whole-reason-refund-{case}")


def test_a_cut_reason_is_shown_whole_in_its_headline_and_cut_again(app, store, settings):
    start_refund(store, settings, "C1", 480_000, customer="Kim Minsu", reason=LONG_REASON)
    at = app(PAGE)
    assert not at.exception, at.exception
    assert "…" in _headline(at) and LATE_PART not in _headline(at)
    assert _switch(at, "C1").label == LABEL and _switch(at, "C1").value is False

    _switch(at, "C1").set_value(True).run()
    assert not at.exception, at.exception
    assert _headline(at).endswith(f"Reason: {LONG_REASON}")  # whole, in the headline's place
    said = [
        element.value for element in [*at.warning, *at.markdown, *at.text, *at.caption] if LATE_PART in element.value
    ]
    assert len(said) == 2, said  # the headline, and the figures' "Reason" below the buttons: no third copy
    assert _switch(at, "C1").label == LABEL and _switch(at, "C1").value is True

    _switch(at, "C1").set_value(False).run()
    assert "…" in _headline(at) and LATE_PART not in _headline(at)


def test_a_click_that_arrives_twice_shows_the_reason_once(app, store, settings):
    """The browser may hand one click to two runs on a page with live parts: the same value again."""
    start_refund(store, settings, "C1", 480_000, customer="Kim Minsu", reason=LONG_REASON)
    at = app(PAGE)
    for _ in range(2):
        _switch(at, "C1").set_value(True).run()
        assert not at.exception, at.exception
        assert _headline(at).endswith(f"Reason: {LONG_REASON}")


def test_the_whole_reason_is_shown_for_the_case_it_was_turned_on_for_only(app, store, settings):
    for case in ("C1", "C2"):
        start_refund(store, settings, case, 480_000, customer="Kim Minsu", reason=LONG_REASON)
    at = app(PAGE)
    at.query_params["thread"] = "refund-C1"
    at.run()
    _switch(at, "C1").set_value(True).run()
    assert LATE_PART in _headline(at)
    at.query_params["thread"] = "refund-C2"
    at.run()
    assert not at.exception, at.exception
    assert "refund-C2" in " ".join(m.value for m in at.markdown)
    assert LATE_PART not in _headline(at)  # another case's reason starts cut
    assert _switch(at, "C2").label == LABEL and _switch(at, "C2").value is False
    at.query_params["thread"] = "refund-C1"
    at.run()
    assert LATE_PART not in _headline(at) and _switch(at, "C1").value is False  # forgotten once not drawn


def test_a_short_reason_is_whole_with_no_switch(app, store, settings):
    start_refund(store, settings, "C1", reason="Broken in transit.")
    at = app(PAGE)
    assert _headline(at).endswith("Reason: Broken in transit.")
    assert not [toggle for toggle in at.toggle if str(toggle.key).startswith("refund-whole-reason")]
