"""Browser flows of the robot page's teaching: a quiz answer shows on click, in English and in Korean."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.conftest import Dashboard, wait_for_app

#: The quiz is drawn last on a long page; on a busy machine that takes more than ``expect``'s 5 s.
DRAWN = 30_000


def _paused_robot_page(page: Page, dashboard: Dashboard, thread: str = "hitl_demo", lang: str = "en") -> None:
    started = dashboard.cli("run", "robot", "--thread", thread)
    assert started.returncode == 0, started.stderr
    page.goto(f"{dashboard.url}/robot?thread={thread}&lang={lang}")
    wait_for_app(page)


def test_a_quiz_answer_shows_when_its_question_is_clicked(page: Page, shared_dashboard: Dashboard):
    _paused_robot_page(page, shared_dashboard, "quiz-en")
    answer = page.get_by_text("This thread took 3 so far (steps -1 to 1).", exact=False)
    expect(answer).to_have_count(1, timeout=DRAWN)  # the lesson beside the checkpoints table; the quiz's is hidden
    page.get_by_role("button", name="2. Is a checkpoint taken only at the pause?").click()
    expect(answer).to_have_count(2, timeout=DRAWN)
    expect(page.get_by_test_id("stAlertContentInfo").filter(has_text="This thread took 3 so far")).to_be_visible()


def test_the_quiz_in_korean(page: Page, shared_dashboard: Dashboard):
    _paused_robot_page(page, shared_dashboard, "quiz-ko", lang="ko")
    question = page.get_by_role("button", name='6. "Yes"도 승인인가요?')
    expect(question).to_be_visible(timeout=DRAWN)
    # The rule's own box at the top says "정확히 소문자" too; the quiz's answer adds the live part.
    quiz_answer = page.get_by_test_id("stAlertContentInfo").filter(has_text="여기서는 아직 답이 없습니다.")
    expect(quiz_answer).to_have_count(0)
    question.click()
    expect(quiz_answer).to_be_visible(timeout=DRAWN)
    expect(quiz_answer).to_contain_text("아니요. 정확히 소문자 yes만 실행합니다.")


def test_the_queue_is_drawn_when_its_expander_is_opened(page: Page, dashboard: Dashboard):
    other = dashboard.cli("run", "robot", "--thread", "other-robot")
    assert other.returncode == 0, other.stderr
    _paused_robot_page(page, dashboard)
    main = page.get_by_test_id("stMain")
    header = main.get_by_text("Other robot threads that need a human (1)", exact=True)
    expect(header).to_be_visible(timeout=DRAWN)
    tables = main.get_by_test_id("stDataFrame")
    expect(tables).to_have_count(2, timeout=DRAWN)  # the checkpoints and the writes; the queue's is not made
    expect(main.get_by_text("other-robot")).to_have_count(0)
    header.click()
    expect(tables).to_have_count(3, timeout=DRAWN)
    expect(tables.nth(2)).to_contain_text("other-robot")
    header.click()  # closed again: made no more
    expect(tables).to_have_count(2, timeout=DRAWN)
