"""The refund case panel draws the same elements, at the same places, whatever amount is typed.

A run of the case panel (a fragment) removes what the run before drew only by drawing over it:
Streamlit drops the elements a fragment's run left out only when that run's end reaches the browser
as a fragment run's end, and a live part's run that starts before it is sent turns it into "stopped
for a rerun". A refusal drawn for a bad amount must therefore sit in a place every run draws, or it
outlives the amount it refused (tests/browser/test_live_case_flow.py sees that in a browser).
"""

from __future__ import annotations

from typing import Any

from tests.factories import start_refund

PAGE = "app_pages/refund.py"
AMOUNT_KEY = "refund-edit-amount-refund-C1"


def _places(node: Any, path: tuple[int, ...] = ()) -> set[tuple[int, ...]]:
    """The delta path of every element drawn under ``node``."""
    children = getattr(node, "children", None)
    if not isinstance(children, dict):
        return {path}
    return set().union(*(_places(child, (*path, index)) for index, child in children.items())) or {path}


def _drawn_for(at: Any, typed: str) -> tuple[set[tuple[int, ...]], str]:
    at.text_input(key=AMOUNT_KEY).input(typed).run()
    assert not at.exception, at.exception
    return _places(at.main), " ".join(error.value for error in at.error)


def test_every_typed_amount_draws_the_case_panel_in_the_same_places(app, store, settings):
    start_refund(store, settings, "C1", 500_000)
    at = app(PAGE)
    at.text_input(key="refund-approver").input("kim").run()
    refused, refusal = _drawn_for(at, "0")
    assert "Cannot edit to this amount" in refusal
    over, _ = _drawn_for(at, "500,001")
    accepted, none = _drawn_for(at, "50,000")
    assert none == ""
    assert any(metric.label == "After the edit" for metric in at.metric)
    empty, _ = _drawn_for(at, "")
    assert refused == over == accepted == empty


# --- The panel's layout per status ----------------------------------------------------------------------


def _panel(at: Any) -> Any:
    """The case panel's own block (the live part's container): the one holding the case picker."""
    return next(
        block
        for block in at.main.children.values()
        if any(getattr(child, "key", None) == "refund-case" for child in getattr(block, "children", {}).values())
    )


def _leaves(node: Any, path: tuple[int, ...] = ()) -> dict[tuple[int, ...], bool]:
    """Each element's and each empty block's delta path under ``node``: True for an element, False for a block."""
    children = getattr(node, "children", None)
    if not isinstance(children, dict):
        return {path: True}
    if not children:
        return {path: False}
    return {leaf: kind for index, child in children.items() for leaf, kind in _leaves(child, (*path, index)).items()}


def _left_behind(before: dict[tuple[int, ...], bool], after: dict[tuple[int, ...], bool]) -> set[tuple[int, ...]]:
    """What a run drawing ``after`` leaves of ``before`` when the browser keeps what the run did not draw.

    That is the browser's part when a fragment run's end arrives as "stopped early": each place the run
    drew replaces what stood there (an element drawn where a block stood, everything below it), while a
    block drawn where a block stood keeps the children it does not draw again.
    """
    elements = {place for place, element in after.items() if element}
    blocks = {place[:depth] for place in after for depth in range(1, len(place))}
    return {
        place
        for place in before
        if place not in after
        and place not in blocks
        and not any(place[:depth] in elements for depth in range(1, len(place)))
    }


def _layouts(app: Any, store: Any, settings: Any) -> dict[str, dict[tuple[int, ...], bool]]:
    from agents import runs, runtime
    from agents.leases import thread_lease
    from agents.registry import get_agent

    drawn = {}
    start_refund(store, settings, "C1", 500_000)
    at = app(PAGE)
    at.text_input(key="refund-approver").input("kim").run()
    drawn["waiting"] = _leaves(_panel(at))
    with thread_lease(store, "refund-C1"):
        drawn["running"] = _leaves(_panel(app(PAGE)))
    runs.resume_from_fields(store, settings, "refund-C1", {"action": "approve", "approver": "kim"})
    drawn["moved on"] = _leaves(_panel(at.run()))  # the same tab: its controls stay, with a notice
    drawn["done"] = _leaves(_panel(app(PAGE)))
    start_refund(store, settings, "C2", 500_000)
    graph = runtime.graph(store, "refund")
    config = runs.run_config(get_agent("refund"), "refund-C2")
    graph.update_state(config, {"decision": "approve", "approver": "kim", "decided_at": "t"}, as_node="review")
    at = app(PAGE)
    at.query_params["thread"] = "refund-C2"
    drawn["attention"] = _leaves(_panel(at.run()))
    return drawn


def test_no_status_change_leaves_an_element_of_the_case_panel_behind(app, store, settings):
    layouts = _layouts(app, store, settings)
    left = {
        (first, then): sorted(_left_behind(layouts[first], layouts[then]))
        for first in layouts
        for then in layouts
        if first != then
    }
    assert left == {pair: [] for pair in left}
