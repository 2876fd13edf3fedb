"""A page's message after an action takes the same place on every run, message or not: an element drawn by
one run and not the next moves every element after it, and the browser builds a moved box (the refund
page's request form) anew, empty, losing the focus and what was being typed in it."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def _page() -> None:
    import streamlit as st

    from dashboard.forms import show_flash

    st.title("Page")
    show_flash()
    with st.expander("New request", expanded=True), st.form("request"):
        st.text_input("Case id", key="case")
        st.form_submit_button("Submit")


def _kinds(at: AppTest) -> list[str]:
    return [type(node).__name__ for node in at.main.children.values()]


def test_the_flash_takes_the_same_place_on_every_run_so_nothing_after_it_moves():
    at = AppTest.from_function(_page).run()
    quiet = _kinds(at)
    at.session_state["flash"] = ("success", "Case C1 submitted: waiting.")
    at.run()
    assert [success.value for success in at.success] == ["Case C1 submitted: waiting."]
    assert len(_kinds(at)) == len(quiet) and _kinds(at)[2:] == quiet[2:]  # the expander is where it was
    at.run()  # the message is said once; its place stays
    assert not at.success and _kinds(at) == quiet
