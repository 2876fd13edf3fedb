"""Which decision controls a case page keeps drawn: they follow a waiting case, stay (stale) when the case
moves on elsewhere, and start afresh after the session's own action."""

from __future__ import annotations

from dashboard.decision_view import controls_view, items_to_draw


def test_controls_follow_a_waiting_case_and_check_against_the_drawn_head():
    view = controls_view(("t1", "h0"), "t1", "waiting", "h1", "h0", own_action=False)
    assert (view.view, view.stale, view.head) == (("t1", "h1"), False, "h0")


def test_controls_stay_stale_when_the_case_moved_on_elsewhere():
    view = controls_view(("t1", "h1"), "t1", "done", "h2", "h1", own_action=False)
    assert (view.view, view.stale, view.head) == (("t1", "h1"), True, "h1")


def test_controls_stay_while_another_process_decides_before_the_head_moves():
    view = controls_view(("t1", "h1"), "t1", "running", "h1", "h1", own_action=False)
    assert (view.view, view.stale, view.head) == (("t1", "h1"), True, "h1")


def test_the_sessions_own_action_is_no_one_elses_change():
    view = controls_view(("t1", "h1"), "t1", "done", "h2", "h1", own_action=True)
    assert (view.view, view.stale) == (("t1", None), False)


def test_another_case_starts_afresh():
    view = controls_view(("t1", "h1"), "t2", "done", "h9", "h9", own_action=False)
    assert (view.view, view.stale, view.head) == (("t2", None), False, "h9")


def test_an_item_decided_elsewhere_keeps_its_controls_and_is_named():
    drawn = ("t1", (("a", {"item": "A-1"}), ("b", {"item": "A-2"})))
    items, gone = items_to_draw("t1", [("a", {"item": "A-1"})], drawn, own_action=False)
    assert [i for i, _ in items] == ["a", "b"] and [i for i, _ in gone] == ["b"]


def test_items_keep_the_places_they_were_drawn_in_when_an_earlier_one_is_decided_elsewhere():
    """A-1 decided by someone else keeps its place above A-2, so a click meant for A-1 lands on A-1 (refused),
    never on A-2's button moved up under the pointer; an item that arrived since comes last."""
    drawn = ("t1", (("a", {"item": "A-1"}), ("b", {"item": "A-2"}), ("c", {"item": "A-3"})))
    waiting = [("b", {"item": "A-2", "error": "again"}), ("c", {"item": "A-3"}), ("d", {"item": "A-4"})]
    items, gone = items_to_draw("t1", waiting, drawn, own_action=False)
    assert [i for i, _ in items] == ["a", "b", "c", "d"] and gone == [("a", {"item": "A-1"})]
    assert items[1] == ("b", {"item": "A-2", "error": "again"})  # a waiting item is drawn as it asks now


def test_an_item_this_session_decided_or_another_cases_item_is_not_drawn():
    drawn = ("t1", (("a", {}), ("b", {})))
    assert items_to_draw("t1", [("a", {})], drawn, own_action=True) == ([("a", {})], [])
    assert items_to_draw("t2", [("c", {})], drawn, own_action=False) == ([("c", {})], [])
