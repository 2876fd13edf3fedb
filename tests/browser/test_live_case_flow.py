"""The open refund case beside live parts: a refusal never outlives the amount it refused.

Live parts rerun on their own timer (here every half second, the shortest ``HITL_LIVE_REFRESH``), so
a live part's run often starts right after the case panel's run that answered a typed amount. Streamlit
then sends the panel's end as "stopped for a rerun" and keeps the elements that run did not draw: a
refusal for the amount typed before stayed beside the preview of the valid amount typed after it,
until the panel ran again. Each round types a refused amount, then a valid one, and waits for the
refusal to go; before the panel drew its refusal in a place every run draws, about one round in
seven kept it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from dashboard.i18n import t
from tests.browser.conftest import Dashboard, serve_dashboard, wait_for_app

ROUNDS = 12


@pytest.fixture(scope="module")
def fast_dashboard(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Dashboard]:
    """The dashboard with its live parts rerunning every half second."""
    with serve_dashboard(tmp_path_factory.mktemp("live") / "dashboard.sqlite", HITL_LIVE_REFRESH="0.5") as served:
        yield served


def _type(page: Page, label: str, text: str) -> None:
    field = page.get_by_test_id("stMain").get_by_label(label, exact=True)
    field.fill(text)
    field.press("Enter")  # commits the value: the case panel runs


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_refusal_goes_as_soon_as_a_valid_amount_is_typed(page: Page, fast_dashboard: Dashboard, lang: str):
    case = f"LIVE-{lang}"
    started = fast_dashboard.cli(
        "run", "refund", "--case", case, "--customer", "kim", "--amount", "400000", "--reason", "r"
    )
    assert started.returncode == 0, started.stderr
    page.goto(f"{fast_dashboard.url}/refund?lang={lang}&thread=refund-{case}")
    wait_for_app(page)
    main = page.get_by_test_id("stMain")
    _type(page, t("field.approver", lang=lang), "kim")
    refusal = main.get_by_test_id("stAlert").filter(has_text=t("refund.edit.invalid", lang=lang, error="").strip())
    preview = main.get_by_test_id("stMetric").filter(has_text=t("refund.edit.preview", lang=lang))
    for round_ in range(ROUNDS):
        _type(page, t("refund.edit.amount", lang=lang), "0")
        expect(refusal).to_have_count(1)
        expect(preview).to_have_count(0)
        valid = 50_000 + round_
        _type(page, t("refund.edit.amount", lang=lang), str(valid))
        expect(preview).to_contain_text(f"{valid:,}")
        expect(refusal).to_have_count(0)
