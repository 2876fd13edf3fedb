"""The robot's waiting question, drawn compactly so its yes / no stay on a projector's first screen.

The waiting notice holds the question, and a text action takes one line after their bold label (a label on a line of its
own, then the text on the next, pushed the buttons below a 1280×720 screen in presenter mode's larger
type). Their text is the agent's, shown as text: Markdown in it is escaped. An action that is not a
text (a JSON object) is drawn as JSON under its label.
"""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

from agents import readmodel
from dashboard.i18n import t
from dashboard.safe_markdown import escape_markdown


def labelled_line(label: str, text: object) -> str:
    """``**label:** text`` with the text escaped, so it reads as it is written."""
    return f"**{label}:** {escape_markdown(str(text))}"


def show_question(payload: Mapping[str, object], pending_action: object) -> None:
    """That the robot waits, with its question in the same box; then the proposed action (the payload's,
    else the state's pending one)."""
    st.warning(f"{t('robot.waiting')}\n\n{labelled_line(t('robot.question'), payload.get('question', ''))}")
    action = payload.get("action", pending_action)
    if isinstance(action, str):
        st.markdown(labelled_line(t("robot.action"), action))
    else:
        st.markdown(f"**{t('robot.action')}:**")
        st.json(readmodel.to_jsonable(action))
