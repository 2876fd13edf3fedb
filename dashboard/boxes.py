"""Boxes of a live part whose number of elements changes from run to run: none of a run's elements outlives it.

A run of a fragment (a live part, :func:`dashboard.live.fragment`) replaces in place each element it draws
again. What it does not draw again Streamlit removes only at the run's end, and only when that end reaches
the browser as a fragment run's end: a tick that starts first turns it into "stopped early", and the
element stays until the part's next run. Until then the browser shows it under what was drawn (marked
``data-stale``, faded): a list drawn with fewer items shows its old last item, a plan drawn as a draft
still says where the final one was saved.

So a part whose number of elements changes draws it in a :func:`box`: two places, one holding the box
(a container), the other an empty element. While the box holds the same ``shape``, it is drawn again in
the same place, a container drawn over a container: its elements are updated in place (what is typed in
them and the focus stay). When the shape changed, the box moves to the other place and the empty element
takes the old place: an element drawn where a container stood removes it with all it held, and it is
sent before the box's new elements, so no old line is ever shown beside a new one. (The box cannot stay
in its place behind an ``st.empty()`` drawn first: Streamlit's queue of messages replaces an element
with the container drawn at the same place after it, before either is sent.)
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

#: The session key prefix of (the shape each box was last drawn in, its place: 0 first, 1 second).
SHAPE_KEY = "box.shape:"


def box(name: str, shape: Hashable, state: Any = None, **options: Any) -> DeltaGenerator:
    """``st.container(**options)`` at this place, holding nothing of an earlier run of another ``shape``.

    Args:
        name: The box's name, unique on its page.
        shape: What decides the box's elements (a list's length, which parts are drawn): a box drawn in
            another shape than last time is drawn in the other place.
        state: The session (``st.session_state`` when None; a dict in tests).
        options: ``st.container``'s options (``border``, ``key``).
    """
    state = st.session_state if state is None else state
    drawn_shape, place = state.get(SHAPE_KEY + name, (shape, 0))
    if drawn_shape != shape:
        place = 1 - place
    if place:
        st.empty()  # over the box of the other shape, if it stood here
        drawn = st.container(**options)
    else:
        drawn = st.container(**options)
        st.empty()
    state[SHAPE_KEY + name] = (shape, place)  # once drawn: a run stopped before moves the box on the next run
    return drawn
