"""The robot page's question, outcome and messages, and what it says about an answer (a typed text shown verbatim)."""

from collections.abc import Mapping
from typing import Any

import streamlit as st

from agents import readmodel, runs
from agents.texts import verbatim
from dashboard.i18n import t, t_or
from dashboard.safe_markdown import escape_markdown


def waiting_question(interrupts: tuple[Any, ...] | list[Any]) -> dict[str, Any]:
    """The waiting question as ``{"question", "action"}``: a payload that is not an object is its action."""
    payload = interrupts[0] if interrupts else {}
    return payload if isinstance(payload, dict) else {"action": payload}


def answered_message(outcome: str, text: str) -> tuple[str, str]:
    """``(kind, message)`` after an answer: only an executed action is a success, a refusal a warning."""
    shown = escape_markdown(verbatim(text))
    if outcome in ("executed", "refused"):
        return ("success" if outcome == "executed" else "warning"), t(f"robot.answered.{outcome}", answer=shown)
    return "info", t("robot.answered", answer=shown)


def typed_rule(typed: str, approving: str) -> str:
    """What the robot will do with a typed answer, the answer shown with its spaces visible.

    Compared as typed, spaces included, as the robot compares it, so the exact-"yes" rule is no surprise.
    """
    will = "robot.will_execute" if typed == approving else "robot.will_refuse"
    return f"{escape_markdown(verbatim(typed))}: {t(will)}"


def labelled_line(label: str, text: object) -> str:
    """``**label:** text`` with the text escaped, so it reads as it is written."""
    return f"**{label}:** {escape_markdown(str(text))}"


def show_question(payload: Mapping[str, object], pending_action: object) -> None:
    """That the robot waits, with its question in the same box; then the proposed action (the payload's,
    else the state's pending one).

    Compact, so the yes / no under it stay on a projector's 1280×720 first screen, presenter mode's larger
    type included: a text action takes one line after its bold label; an action that is not a text (a JSON
    object) is drawn as JSON under its label. The agent's text is escaped: Markdown in it reads as written.
    """
    st.warning(f"{t('robot.waiting')}\n\n{labelled_line(t('robot.question'), payload.get('question', ''))}")
    action = payload.get("action", pending_action)
    if isinstance(action, str):
        st.markdown(labelled_line(t("robot.action"), action))
    else:
        st.markdown(f"**{t('robot.action')}:**")
        st.json(readmodel.to_jsonable(action))


def show_outcome(result: runs.RunResult, answered: str | None) -> None:
    """Status and outcome side by side, the outcome styled by what happened (a refusal is no success)."""
    status_col, outcome_col = st.columns(2)
    status_col.metric(t("robot.status"), escape_markdown(t_or(f"status.{result.status}", result.status)))
    outcome = t(f"outcome.{result.outcome}") if result.outcome else t("robot.outcome.none")
    outcome_col.metric(t("robot.outcome"), escape_markdown(outcome))  # a metric value is Markdown too
    if result.outcome == "executed":
        st.success(t("robot.outcome.executed", answer=escape_markdown(verbatim(answered))))
    elif result.outcome == "refused":
        st.warning(t("robot.outcome.refused", answer=escape_markdown(verbatim(answered))))
    st.caption(t("robot.outcome.apart"))


def show_messages(values: Mapping[str, Any]) -> None:
    """The thread's messages as a chat, each as text."""
    st.markdown(f"**{t('robot.messages')}**")
    for message in readmodel.to_jsonable(values.get("messages", [])):
        with st.chat_message("user" if message["type"] == "human" else "assistant"):
            st.text(message["content"])
