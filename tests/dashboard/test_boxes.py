"""``boxes.box``: a box drawn with fewer lines leaves none of its old lines where the browser would keep them.

What a browser keeps of a run whose end never reaches it as a fragment run's end is modelled as in
``tests/app_pages/test_refund_case_shape.py``: each place the run drew replaces what stood there (an element
drawn where a block stood, everything in it), a block drawn where a block stood keeps what it held and the
run did not draw again. ``tests/browser/test_live_box_shrinks_flow.py`` sees the same in a browser.
"""

from __future__ import annotations

from typing import Any

from streamlit.testing.v1 import AppTest

from tests.app_pages.test_refund_case_shape import _leaves, _left_behind


def _script() -> None:
    import streamlit as st

    from dashboard.boxes import box

    lines = st.session_state["lines"]
    with box("lines", lines) if st.session_state.get("boxed", True) else st.container():
        for number in range(lines):
            st.markdown(f"line {number}")
    st.text("after")


def _runs(boxed: bool, *lines: int) -> list[dict[tuple[int, ...], bool]]:
    at = AppTest.from_function(_script)
    drawn = []
    for count in lines:
        at.session_state["lines"], at.session_state["boxed"] = count, boxed
        at.run()
        assert not at.exception, at.exception
        drawn.append(_leaves(at.main))
    return drawn


def _kept(drawn: list[dict[tuple[int, ...], bool]]) -> list[list[tuple[int, ...]]]:
    return [sorted(_left_behind(before, after)) for before, after in zip(drawn, drawn[1:], strict=False)]


def _markdown(at: Any) -> list[str]:
    return [element.value for element in at.markdown]


def test_a_box_drawn_with_fewer_lines_leaves_none_of_its_old_ones_behind():
    assert _kept(_runs(True, 3, 2, 2, 4, 1, 1)) == [[], [], [], [], []]


def test_a_plain_container_drawn_with_fewer_lines_leaves_its_last_ones_behind():
    # What the box is for: a container drawn again keeps the lines its run did not draw.
    assert _kept(_runs(False, 3, 1)) == [[(0, 1), (0, 2)]]


def test_a_box_of_the_same_shape_is_drawn_again_in_its_place_and_moves_when_its_shape_changes():
    at = AppTest.from_function(_script)
    places = []
    for count in (2, 2, 3, 3, 1):
        at.session_state["lines"] = count
        at.run()
        places.append(next(index for index, node in at.main.children.items() if getattr(node, "children", None)))
        assert _markdown(at) == [f"line {number}" for number in range(count)]
    # In place while its shape holds (what it holds is updated, focus and typed text stay), moved when not.
    assert places == [0, 0, 1, 1, 0]
