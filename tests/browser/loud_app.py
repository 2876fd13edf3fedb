"""A page that prints ``LOUD_APP_BYTES`` at each run and says how many runs it made
(``tests/browser/test_server_output_flow.py``)."""

import os

import streamlit as st

print("x" * (int(os.environ["LOUD_APP_BYTES"]) - 1), flush=True)
st.session_state["runs"] = st.session_state.get("runs", 0) + 1
st.button("Run again")
st.text(f"runs: {st.session_state['runs']}")
