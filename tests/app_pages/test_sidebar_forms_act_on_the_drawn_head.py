"""The sidebar's forms act on the head the page drew, not on one read later in the same run.

Another tab can change the thread while this tab's page runs (between the page's read of the head
and the sidebar's). The forms must then be stale, as the page's own buttons are: a submit is checked
against what the user saw beside them, and refused with nothing changed.
"""

from __future__ import annotations

from types import SimpleNamespace

from streamlit.testing.v1 import AppTest

import dashboard.forms
from agents import readmodel, runs
from agents.errors import short_id
from agents.refund import ledger
from tests.conftest import APP_FILE
from tests.factories import pause_robot, start_refund, thread_counts


def _other_tab_acts_at_the_sidebars_read(monkeypatch, act):
    """Runs ``act`` (another tab's change) once, just before the sidebar first reads a head."""
    done = []

    def head_checkpoint_id(store, thread_id):
        if not done:
            done.append(act())
        return readmodel.head_checkpoint_id(store, thread_id)

    proxy = SimpleNamespace(**{name: getattr(readmodel, name) for name in dir(readmodel) if not name.startswith("__")})
    proxy.head_checkpoint_id = head_checkpoint_id
    monkeypatch.setattr(dashboard.forms, "readmodel", proxy)
    return done


def _page_run_while_another_tab_acts(monkeypatch, page, act):
    """``page`` opened in a new session, with ``act`` (another tab) run during its run, before the sidebar."""
    at = AppTest.from_file(APP_FILE, default_timeout=60)
    at.run()
    done = _other_tab_acts_at_the_sidebars_read(monkeypatch, act)
    at.switch_page(page).run()
    assert done and not at.exception
    return at


def _moved_since_drawn(store, thread_id, drawn, at):
    """The thread's counts and head, after checking its head moved and the sidebar names the drawn one."""
    moved = thread_counts(store, thread_id)
    assert moved[2] != drawn
    assert any(short_id(drawn) in c.value for c in at.sidebar.caption), [c.value for c in at.sidebar.caption]
    return moved


def test_an_answer_in_the_sidebar_after_another_tab_started_over_mid_run_is_refused(store, settings, monkeypatch):
    pause_robot(store, settings)
    drawn = readmodel.head_checkpoint_id(store, "hitl_demo")
    # While the robot page runs, another tab starts the thread over (its confirmed Delete and start over): it
    # waits again, at a new head, with a proposal this tab never showed.
    at = _page_run_while_another_tab_acts(
        monkeypatch,
        "app_pages/robot.py",
        lambda: runs.start_run(store, settings, "robot", {}, thread_id="hitl_demo", delete_unfinished=True),
    )
    restarted = _moved_since_drawn(store, "hitl_demo", drawn, at)

    at.sidebar.text_input(key="resume-answer-hitl_demo").input("yes")
    next(b for b in at.sidebar.button if b.label == "Resume").click().run()

    assert not at.exception
    assert not at.success, [s.value for s in at.success]
    assert any("stale" in e.value or "changed" in e.value for e in at.error), [e.value for e in at.error]
    assert thread_counts(store, "hitl_demo") == restarted
    assert runs.current_result(store, settings, "hitl_demo").status == "waiting"


def test_a_thread_started_by_another_tab_mid_run_gets_no_forms_until_the_page_shows_it(store, settings, monkeypatch):
    # the page draws "not started"
    at = _page_run_while_another_tab_acts(monkeypatch, "app_pages/robot.py", lambda: pause_robot(store, settings))
    assert "Resume" not in [b.label for b in at.sidebar.button]
    assert any("hitl_demo" in c.value and "does not exist" in c.value for c in at.sidebar.caption)
    at.run()  # the next run shows the thread, and the forms with it
    assert "Resume" in [b.label for b in at.sidebar.button]


def test_an_approval_in_the_sidebar_after_an_amount_edited_mid_run_pays_nothing(store, settings, monkeypatch):
    start_refund(store, settings, amount=500_000)  # waits for a human: above the threshold
    drawn = readmodel.head_checkpoint_id(store, "refund-C1")
    # While the refund page runs (it shows 500,000), an admin in another tab lowers the amount.
    at = _page_run_while_another_tab_acts(
        monkeypatch,
        "app_pages/refund.py",
        lambda: runs.update_thread(store, settings, "refund-C1", {"amount": 400_000}),
    )
    edited = _moved_since_drawn(store, "refund-C1", drawn, at)

    at.sidebar.selectbox(key="resume-action-refund-C1").select("approve")
    at.sidebar.text_input(key="resume-approver-refund-C1").input("park")
    next(b for b in at.sidebar.button if b.label == "Resume").click().run()

    assert not at.exception
    assert ledger.ledger_rows(store) == []
    assert thread_counts(store, "refund-C1") == edited
