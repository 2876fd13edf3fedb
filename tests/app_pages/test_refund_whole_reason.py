"""AppTest for a waiting refund's long reason: cut in its headline, shown whole in the same place by one button
and folded again, once on the page's headline, for the case it was opened for only."""

from __future__ import annotations

from tests.factories import button_by_key, start_refund

PAGE = "app_pages/refund.py"
LONG_REASON = (
    "The parcel arrived two weeks late, the outer box was crushed, two of the three ceramic cups inside were"
    " broken and the customer had already paid for express delivery, which the courier did not honour; the"
    " customer asks for the whole order back including shipping."
)
#: A part of the reason past the headline's cut.
LATE_PART = "which the courier did not honour"


def _headline(at) -> str:
    """The warning that says the case waits, with its summary."""
    return next(w.value for w in at.warning if "Waiting for an approver." in w.value)


def test_a_cut_reason_is_shown_whole_in_its_headline_and_folded_again(app, store, settings):
    start_refund(store, settings, "C1", 480_000, customer="Kim Minsu", reason=LONG_REASON)
    at = app(PAGE)
    assert not at.exception, at.exception
    assert "…" in _headline(at) and LATE_PART not in _headline(at)
    assert button_by_key(at, "refund-whole-reason").label == f"Show the whole reason ({len(LONG_REASON)} characters)"

    button_by_key(at, "refund-whole-reason").click().run()
    assert not at.exception, at.exception
    assert _headline(at).endswith(f"Reason: {LONG_REASON}")  # whole, in the headline's place
    said = [
        element.value for element in [*at.warning, *at.markdown, *at.text, *at.caption] if LATE_PART in element.value
    ]
    assert len(said) == 2, said  # the headline, and the figures' "Reason" below the buttons: no third copy
    assert button_by_key(at, "refund-whole-reason").label == "Show less of the reason"

    button_by_key(at, "refund-whole-reason").click().run()
    assert "…" in _headline(at) and LATE_PART not in _headline(at)


def test_the_whole_reason_is_shown_for_the_case_it_was_opened_for_only(app, store, settings):
    for case in ("C1", "C2"):
        start_refund(store, settings, case, 480_000, customer="Kim Minsu", reason=LONG_REASON)
    at = app(PAGE)
    at.query_params["thread"] = "refund-C1"
    at.run()
    button_by_key(at, "refund-whole-reason").click().run()
    assert LATE_PART in _headline(at)
    at.query_params["thread"] = "refund-C2"
    at.run()
    assert not at.exception, at.exception
    assert "refund-C2" in " ".join(m.value for m in at.markdown)
    assert LATE_PART not in _headline(at)  # another case's reason starts cut
    assert button_by_key(at, "refund-whole-reason").label.startswith("Show the whole reason")


def test_a_short_reason_is_whole_with_no_button(app, store, settings):
    start_refund(store, settings, "C1", reason="Broken in transit.")
    at = app(PAGE)
    assert _headline(at).endswith("Reason: Broken in transit.")
    assert not [b for b in at.button if b.key == "refund-whole-reason"]
