"""Presenter mode in a browser, in English and Korean: larger type, folded explanations, hidden quiz
answers, the graph's step highlighted and the save file's new rows marked after answering."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from agents.robot.strings import STRINGS as ROBOT
from dashboard.strings.presenter import STRINGS as PRESENTER
from tests.browser.conftest import Dashboard, table_with
from tests.browser.opening import cli_ok, open_page

DRAWN = 30_000
#: A paragraph of the page's main block is drawn at the presenter's size (Streamlit's is 16 px).
LARGER_TYPE = """() => {
  const text = document.querySelector('[data-testid="stMain"] [data-testid="stMarkdownContainer"] p');
  return !!text && parseFloat(getComputedStyle(text).fontSize) >= 20;
}"""


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_presenter_mode_folds_hides_highlights_and_marks_new_rows(page: Page, shared_dashboard: Dashboard, lang):
    index = 0 if lang == "en" else 1
    thread = f"present-{lang}"
    cli_ok(shared_dashboard, "run", "robot", "--thread", thread)
    main = open_page(page, shared_dashboard, f"robot?thread={thread}&lang={lang}&present=1")

    page.wait_for_function(LARGER_TYPE)  # larger type, computed by the browser
    lesson = main.get_by_test_id("stExpander").filter(has_text=ROBOT["robot.q.stop"][index])
    expect(lesson).to_be_visible(timeout=DRAWN)
    answer = lesson.get_by_text(ROBOT["robot.a.stop"][index].split("`")[-1].strip()[:20])
    expect(answer).to_be_hidden()  # folded until the presenter opens it
    lesson.get_by_text(ROBOT["robot.q.stop"][index]).click()
    expect(answer).to_be_visible()
    quiz = main.get_by_test_id("stExpander").filter(has_text=f"1. {ROBOT['robot.q.after_answer'][index]}")
    expect(quiz).to_be_visible(timeout=DRAWN)
    quiz_answer = main.get_by_test_id("stAlertContentInfo").filter(has_text=ROBOT["robot.a.after_answer"][index][:12])
    expect(quiz_answer).to_have_count(0)  # hidden until clicked
    expect(main.get_by_text(PRESENTER["presenter.step.current"][index].format(node="approval"))).to_be_visible()
    expect(main.get_by_test_id("stToggle")).to_have_count(0)  # the switch is in the sidebar
    expect(page.get_by_test_id("stSidebar").get_by_text(PRESENTER["presenter.toggle"][index])).to_be_visible()

    new_mark = PRESENTER["presenter.new"][index]
    expect(table_with(page, "__interrupt__")).not_to_contain_text(new_mark)  # the first view marks nothing
    main.get_by_role("button", name=ROBOT["robot.yes"][index], exact=True).click()
    expect(main.get_by_text(PRESENTER["presenter.step.finished"][index])).to_be_visible(timeout=DRAWN)
    writes = table_with(page, "__resume__")
    expect(writes).to_contain_text(new_mark, timeout=DRAWN)  # the answer's rows, marked
    expect(table_with(page, "execute")).to_contain_text(new_mark)
    expect(
        main.get_by_text(PRESENTER["presenter.new_rows"][index].split("{count}")[-1].strip()[:10]).first
    ).to_be_visible()
    assert "present=1" in page.url
