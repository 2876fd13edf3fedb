"""``drawn_head``: what a form saw on the previous run; a form never drawn for a thread saw nothing."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def _script() -> None:
    import streamlit as st

    from dashboard.forms import drawn_head

    thread, head = st.session_state.get("thread", "a"), st.session_state.get("head", "h1")
    st.text(repr(drawn_head("form", thread, head)))


def _seen(at: AppTest, thread: str, head: str | None) -> str:
    at.session_state["thread"], at.session_state["head"] = thread, head
    at.run()
    assert not at.exception, at.exception
    return at.text[0].value


def test_a_form_sees_the_head_of_its_previous_run_and_nothing_for_a_thread_it_never_drew():
    at = AppTest.from_function(_script)
    assert _seen(at, "a", "h1") == "'unseen'"  # the first run: nothing was drawn yet
    assert _seen(at, "a", "h2") == "'h1'"  # what the previous run drew, not what is there now
    assert _seen(at, "b", "h9") == "'unseen'"  # another thread: never drawn, so no head counts as seen
    assert _seen(at, "a", None) == "'h2'"
    assert _seen(at, "a", None) == "None"  # drawn when the thread did not exist
