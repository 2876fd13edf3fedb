"""The explorer's thread is the URL's: a pick goes to ``?thread=``, and a thread that disappears is not replaced.

README: a link or a reload keeps the page's state. The thread picked goes to the URL, so a reload opens
it again. When the thread shown is deleted (elsewhere, or here with the sidebar's form) the page opens
no other thread in its place, and the sidebar arms no form, until the user picks one; a delete made here
is said once. When the thread shown moves on elsewhere, the selected head follows it, so the state shown
is the one the sidebar's forms name.
"""

from __future__ import annotations

from agents import deletion, readmodel, runs
from dashboard.i18n import t
from tests.app_pages.test_explorer_reads_a_thread import open_at
from tests.factories import button_by_key, messages, pause_robot

PAGE = "app_pages/explorer.py"


def _sidebar_buttons(at) -> list[str]:
    return [b.label for b in at.sidebar.button]


def test_a_thread_picked_goes_to_the_url_and_a_reload_opens_it(app, store, settings):
    pause_robot(store, settings, "tt-20")
    pause_robot(store, settings, "tt-21")
    at = open_at(app, "tt-20")
    at.selectbox(key="explorer-thread").select("tt-21").run()
    assert not at.exception, at.exception
    assert "tt-21" in str(at.query_params["thread"])
    assert "Thread tt-21 · checkpoint" in " ".join(c.value for c in at.sidebar.caption)
    reloaded = open_at(app, "tt-21")  # a reload: a new session with the URL
    assert reloaded.selectbox(key="explorer-thread").value == "tt-21"


def test_the_explorer_opened_without_a_thread_names_the_one_it_shows_in_the_url(app, store, settings):
    pause_robot(store, settings, "only")
    at = app(PAGE)
    assert at.selectbox(key="explorer-thread").value == "only"
    assert "only" in str(at.query_params["thread"])


def test_a_thread_deleted_elsewhere_is_not_replaced_by_another_with_forms_armed(app, store, settings):
    pause_robot(store, settings, "tt-8")
    pause_robot(store, settings, "tt-7")
    at = open_at(app, "tt-7")
    assert "Delete thread" in _sidebar_buttons(at)
    deletion.delete_thread(store, "tt-7")  # another tab or process
    at.run()  # the live refresh
    assert not at.exception, at.exception
    assert "There is no thread named tt-7 in the database." in messages(at)
    assert t("explorer.none_open") in messages(at)
    assert not at.get("plotly_chart")  # tt-8 is not shown in its place
    assert not {"Resume", "Update state", "Delete thread"} & set(_sidebar_buttons(at))  # nor armed for
    at.run()
    assert not {"Resume", "Update state", "Delete thread"} & set(_sidebar_buttons(at))

    button_by_key(at, "explorer-open-picked").click().run()  # "Open tt-8": picked by the user
    assert not at.exception, at.exception
    assert "tt-8" in str(at.query_params["thread"])
    assert "Thread tt-8 · checkpoint" in " ".join(c.value for c in at.sidebar.caption)
    assert "Delete thread" in _sidebar_buttons(at)


def test_a_delete_made_here_is_said_once_and_arms_nothing_for_another_thread(app, store, settings):
    runs.start_run(store, settings, "refund", {"case_id": "C12", "customer": "kim", "amount": 500_000, "reason": "r"})
    runs.start_run(store, settings, "refund", {"case_id": "C10", "customer": "kim", "amount": 500_000, "reason": "r"})
    at = open_at(app, "refund-C10")
    at.sidebar.text_input(key="delete-confirm-refund-C10").input("refund-C10")
    at.sidebar.text_input(key="delete-reason-refund-C10").input("duplicate")
    next(b for b in at.sidebar.button if b.label == "Delete thread").click().run()
    assert not at.exception, at.exception
    assert readmodel.head_checkpoint_id(store, "refund-C10") is None
    said = messages(at)
    assert "Deleted thread refund-C10." in said
    assert "There is no thread named" not in said
    assert not {"Resume", "Update state", "Delete thread"} & set(_sidebar_buttons(at))
    assert not [w for w in at.text_input if w.key == "delete-confirm-refund-C12"]
    at.run()
    assert "There is no thread named" not in messages(at)
    assert not {"Resume", "Update state", "Delete thread"} & set(_sidebar_buttons(at))

    pause_robot(store, settings, "picked")
    pause_robot(store, settings, "newer")
    at.run()
    at.selectbox(key="explorer-agent").select("robot").run()  # the agent alone picks no thread
    assert at.selectbox(key="explorer-thread").value == "newer"
    assert not {"Resume", "Update state", "Delete thread"} & set(_sidebar_buttons(at))
    at.selectbox(key="explorer-thread").select("picked").run()
    assert "picked" in str(at.query_params["thread"])
    assert "Delete thread" in _sidebar_buttons(at)


def test_the_selected_head_follows_the_thread_when_it_moves_on_elsewhere(app, store, settings):
    pause_robot(store, settings, "moving")
    before = readmodel.head_checkpoint_id(store, "moving")
    at = open_at(app, "moving")
    assert at.selectbox(key="explorer-checkpoint-moving").value == before
    runs.update_thread(store, settings, "moving", {"pending_action": "Wire it all"}, as_node="propose")
    runs.continue_thread(store, settings, "moving")
    head = readmodel.head_checkpoint_id(store, "moving")
    at.run()
    assert not at.exception, at.exception
    assert at.selectbox(key="explorer-checkpoint-moving").value == head  # what the forms name
    assert any(head[:8] in i.value or "new head" in i.value for i in at.info)


def test_an_older_checkpoint_selected_stays_selected_when_the_thread_moves_on(app, store, settings):
    pause_robot(store, settings, "browsed")
    at = open_at(app, "browsed")
    older = readmodel.checkpoint_chain(store, "browsed")[0].checkpoint_id
    at.selectbox(key="explorer-checkpoint-browsed").select(older).run()
    runs.update_thread(store, settings, "browsed", {"pending_action": "Wire it all"}, as_node="propose")
    at.run()
    assert at.selectbox(key="explorer-checkpoint-browsed").value == older
