"""Presenter mode's robot page on a projector's 1280×720, measured in the browser, in English and Korean.

The question is as wide as the page, so its proposed action reads on one line; the answers stay on the
first screen; the column beside them is used: the graph's steps beside the buttons, then the save
file's latest (after an action: new) rows beside the state below them. The thread and Start over sit
beside the title, Start over whole on the first screen, its confirmation too.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from dashboard.i18n import t
from tests.browser.conftest import LINE_STARTS, Dashboard
from tests.browser.opening import cli_ok, open_page

WIDTH, HEIGHT = 1280, 720
#: Room left under the answer buttons: a projector's edge or a browser bar never hides them.
FOLD_MARGIN = 40


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_proposal_is_one_line_and_the_column_beside_the_answers_is_used(
    page: Page, shared_dashboard: Dashboard, lang: str
):
    thread = f"projector-{lang}"
    cli_ok(shared_dashboard, "run", "robot", "--thread", thread)
    main = open_page(page, shared_dashboard, f"robot?thread={thread}&lang={lang}&present=1", (WIDTH, HEIGHT))

    proposal = main.get_by_test_id("stMarkdownContainer").filter(has_text=f"{t('robot.action', lang=lang)}:")
    expect(proposal).to_have_count(1)
    assert proposal.evaluate(LINE_STARTS) == []  # one drawn line

    yes, no = (main.locator(f".st-key-robot-{key} button") for key in ("yes", "no"))
    expect(no).to_be_visible()
    yes_box, no_box = yes.bounding_box(), no.bounding_box()
    assert yes_box is not None and no_box is not None
    assert no_box["y"] + no_box["height"] <= HEIGHT - FOLD_MARGIN, no_box  # on the first screen
    beside = no_box["x"] + no_box["width"]  # what is right of the buttons is in the column beside them

    graph = main.get_by_test_id("stMarkdownContainer").filter(has_text=f"{t('presenter.steps', lang=lang)}:")
    expect(graph).to_have_count(1)
    graph_box = graph.bounding_box()
    assert graph_box is not None
    assert graph_box["x"] >= beside, (graph_box, no_box)
    assert yes_box["y"] - 5 <= graph_box["y"] <= no_box["y"] + no_box["height"], (graph_box, no_box)  # beside them

    rows = main.locator(".st-key-presenter-latest-rows")
    expect(rows).to_contain_text("__interrupt__")  # the pause, the last row written
    rows_box = rows.bounding_box()
    status = main.get_by_test_id("stMetric").filter(has_text=t("robot.status", lang=lang))
    status_box = status.bounding_box()
    assert rows_box is not None and status_box is not None
    assert rows_box["x"] >= beside, (rows_box, no_box)
    assert rows_box["y"] < status_box["y"] + status_box["height"], (rows_box, status_box)  # beside the state

    main.get_by_role("button", name=t("robot.yes", lang=lang), exact=True).click()
    expect(rows).to_contain_text(t("presenter.rows.new", lang=lang))  # after the answer: its new rows
    expect(rows).to_contain_text("__resume__")


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_start_over_is_whole_on_the_first_screen_with_the_answers(page: Page, shared_dashboard: Dashboard, lang: str):
    thread = f"start-over-{lang}"
    cli_ok(shared_dashboard, "run", "robot", "--thread", thread)
    main = open_page(page, shared_dashboard, f"robot?thread={thread}&lang={lang}&present=1", (WIDTH, HEIGHT))

    start_over = main.get_by_role("button", name=t("robot.start_over", lang=lang), exact=True)
    expect(start_over).to_be_visible()
    no = main.locator(".st-key-robot-no button")
    expect(no).to_be_visible()
    start_box, no_box = start_over.bounding_box(), no.bounding_box()
    assert start_box is not None and no_box is not None
    assert 0 <= start_box["y"] and start_box["y"] + start_box["height"] <= HEIGHT, start_box  # whole, no scrolling
    assert no_box["y"] + no_box["height"] <= HEIGHT - FOLD_MARGIN, no_box  # the answers stay where they were
    thread_box = main.locator("code", has_text=thread).first.bounding_box()  # the thread, just above it
    assert thread_box is not None and 0 <= thread_box["y"], thread_box
    assert thread_box["y"] + thread_box["height"] <= start_box["y"], (thread_box, start_box)

    start_over.click()  # the confirmation is asked, and on the first screen too
    delete = main.get_by_role("button", name=t("robot.start_over.delete", lang=lang))
    expect(delete).to_be_visible()
    delete_box = delete.bounding_box()
    assert delete_box is not None and delete_box["y"] + delete_box["height"] <= HEIGHT, delete_box
