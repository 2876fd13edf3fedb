"""What every queue shares beyond its rows: the order one click away, and who may decide each item.

The order (oldest first by default, ``agents.queue_rights.ORDERS``) is a segmented control whose
choice this session keeps across reruns and pages. Who may decide comes from the roles file through
the agent (``agents.queue_rights.rights_of``): a signed-in person sees the items they may decide
first ("my queue") and the deciders by email; local mode shows the same facts as roles and limits.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Literal

import streamlit as st

from agents import ages, lifecycle, queue_rights
from agents.decision_rights import DecisionRights
from agents.identity import Identity
from dashboard import resources
from dashboard.i18n import current_language, t
from dashboard.safe_markdown import escape_markdown


def order_control(key: str, *, label_visibility: Literal["visible", "collapsed"] = "visible") -> str:
    """The queue's order, one click away; the session's last choice (oldest first at the start). Its label
    ("Order") is drawn as ``label_visibility`` says (a screen reader reads it either way).

    A segmented control forgets its value on a page it is not drawn on, so the choice is also kept
    under a key of its own, and clicking the chosen segment again (which deselects it) keeps it.
    """
    memory, kept = f"{key}:kept", kept_order(key)
    if st.session_state.get(key) is None:
        st.session_state[key] = kept
    chosen = st.segmented_control(
        t("queue.order"),
        queue_rights.ORDERS,
        key=key,
        format_func=lambda order: t(f"queue.order.{order}"),
        selection_mode="single",
        label_visibility=label_visibility,
    )
    chosen = chosen if chosen in queue_rights.ORDERS else kept
    st.session_state[memory] = chosen
    return chosen


def kept_order(key: str) -> str:
    """The order the session last chose in the order control ``key`` (:func:`order_control`); oldest first at the
    start."""
    kept = st.session_state.get(f"{key}:kept")
    return kept if kept in queue_rights.ORDERS else queue_rights.ORDERS[0]


def first_of_mine(statuses: Sequence[lifecycle.ThreadStatus], me: Identity, order_key: str) -> str | None:
    """The thread that a queue of ``statuses`` shows first among the ones ``me`` may decide ("my queue, shown
    first"), in the order its control ``order_key`` keeps; None in local mode, without a roles file, or when
    none of them is theirs."""
    if me.local:
        return None
    store = resources.store()
    mine = queue_rights.mine_of(rights_for(statuses, resources.settings().deadlines, ages.utc_now()), me)
    own = [status for status in statuses if mine(status.thread_id)]
    ranked = queue_rights.ordered(
        own, kept_order(order_key), status=lambda x: x, amount=lambda x: queue_rights.case_amount(store, x)
    )
    return ranked[0].thread_id if ranked else None


def rights_for(
    items: Sequence[lifecycle.ThreadStatus], deadlines: Mapping[str, int], now: dt.datetime
) -> dict[str, DecisionRights]:
    """Who may decide each waiting item (nothing without a roles file)."""
    return queue_rights.rights_of(resources.store(), resources.settings().roles, items, deadlines, now)


def rights_cell(rights: DecisionRights | None, me: Identity, lang: str | None = None) -> str:
    """Who may decide, in one cell: emails for a signed-in viewer, roles and limits in local mode."""
    if rights is None:
        return ""
    return rights.summary(lang or current_language(), identities=not me.local)


def rights_notes_shape(rights: Mapping[str, DecisionRights], me: Identity) -> tuple[bool, int]:
    """What decides the elements :func:`show_rights_notes` draws: whether it counts the signed-in person's
    items, and how many warnings it draws."""
    flagged = sum(found.no_decider is not None for found in rights.values())
    return (not me.local and bool(rights), min(flagged, 6))


def show_rights_notes(rights: Mapping[str, DecisionRights], me: Identity) -> None:
    """Above a queue: how many items the signed-in person may decide (shown first), and every item no
    one may decide, at once, with the reason."""
    if not me.local and rights:
        mine = sum(found.includes(me) for found in rights.values())
        st.caption(t("queue.mine", count=mine))
    lang = current_language()
    flagged = [(tid, found.no_decider) for tid, found in rights.items() if found.no_decider is not None]
    for thread_id, reason in flagged[:5]:
        words = t("queue.flagged", thread=thread_id, reason=reason.render(lang) if reason else "")
        st.warning(escape_markdown(words))
    if len(flagged) > 5:
        st.warning(t("queue.flagged_more", count=len(flagged) - 5))
