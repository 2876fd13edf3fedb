"""``armed_head``: a form keeps the head it was drawn at while the browser shows it, whatever reruns the page."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def _script() -> None:
    import streamlit as st

    from dashboard.forms import armed_head, submit_key

    head, shown = st.session_state.get("head", "h1"), st.session_state.get("shown", True)
    own = st.session_state.pop("own", False)
    if shown:
        expected, drawn = armed_head("form", "a", head, changed_here=own)
        st.text(repr((expected, drawn)))
        with st.form("form-a"):
            st.text_input("answer", key="answer-a")
            st.form_submit_button("send", key=submit_key("form", "a"))


def _run(at: AppTest, head: str, *, shown: bool = True, own: bool = False) -> str:
    at.session_state["head"], at.session_state["shown"], at.session_state["own"] = head, shown, own
    at.run()
    assert not at.exception, at.exception
    return at.text[0].value if shown else ""


def test_a_form_keeps_its_head_until_it_is_sent_and_a_form_drawn_anew_takes_the_head_shown():
    at = AppTest.from_function(_script)
    assert _run(at, "h1") == "('unseen', 'h1')"  # appears now: nothing was typed in it
    assert _run(at, "h2") == "('h1', 'h1')"  # drawn again for h2: kept at h1, what may be typed there
    assert _run(at, "h3") == "('h1', 'h1')"
    at.button(key="form-submit-a").click()
    assert _run(at, "h3") == "('h1', 'h3')"  # sent: checked against h1 (refused), then acts on h3
    assert _run(at, "h3") == "('h3', 'h3')"
    assert _run(at, "h4", own=True) == "('h3', 'h4')"  # this session's own action: no other tab's change
    _run(at, "h5", shown=False)  # another thread, another page: the browser drops the form
    assert _run(at, "h6") == "('unseen', 'h6')"  # drawn anew, empty: for the head shown
