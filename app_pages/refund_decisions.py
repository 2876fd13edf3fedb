"""The refund case's decision controls: approve, reject and edit the amount, for the case or for each item.

Every click goes through ``runs.resume_from_fields`` (the path every answer takes, with its checks), for
the head the controls were drawn for (:mod:`dashboard.decision_view`), so a stale click is refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import streamlit as st

from agents import runs
from agents.db import Store
from agents.errors import UserError
from agents.identity import Identity
from agents.refund.graph import AGENT_NAME
from agents.refund.permissions import APPROVE_REFUND, REJECT_REFUND
from agents.refund.rules import check_edit_amount
from agents.settings import Settings
from agents.validation import parse_whole_number
from dashboard import auth
from dashboard.decision_view import edit_fields, items_to_draw, note_refused_by, refused_here, said_as_read
from dashboard.formats import amount
from dashboard.forms import act, status_word
from dashboard.i18n import form_labels, localized, t
from dashboard.safe_markdown import escape_markdown
from dashboard.views import question_id_caption

VIEW_KEY = "refund:decision-view"  # (thread, head) the decision controls were drawn for
ITEM_VIEW_KEY = "refund:item-view"  # (thread, ((interrupt id, question), ...)) the item controls were drawn for
#: (thread, message): why the last click on a case's controls (or its Continue) was refused, drawn beside the buttons
#: clicked (else under the controls) by every run of the case panel until the page is drawn again
REFUSED_KEY = "refund:refused"
#: The buttons of an item's own controls (a refund with several items) begin with this.
ITEM_BUTTON = "refund-item-"


def remembered_input(widget_key: str, label: str, container: Any = st, **kwargs: Any) -> str:
    """A text input whose value outlives reruns in which it is not drawn (a decided case, another case)."""
    memory = f"refund:memory:{widget_key}"
    if widget_key not in st.session_state:
        st.session_state[widget_key] = st.session_state.get(memory, "")
    value: str = container.text_input(label, key=widget_key, **kwargs)
    st.session_state[memory] = value
    return value


@dataclass(frozen=True)
class Decider:
    """Who decides which case, and the head the decision is checked against."""

    store: Store
    settings: Settings
    thread_id: str
    case_id: str
    head: str | None  # the head the controls were drawn for
    me: Identity
    approver: str
    note: str
    requested_by: str

    def send(self, action: str, controls: str, interrupt_id: str | None = None, typed_amount: str = "") -> None:
        """Sends a decision from the ``controls`` (on one item: its question's ``interrupt_id``; an edit: the
        ``typed_amount``), refused if the page is stale or the case (the item) is not waiting."""
        st.session_state.pop(VIEW_KEY, None)  # decided or refused: the next run shows the case as it is
        st.session_state.pop(ITEM_VIEW_KEY, None)
        sent, unreadable = edit_fields(typed_amount)  # {} unless an amount is typed
        answer: dict[str, Any] = {"action": action, "approver": self.approver, "note": self.note, **sent}

        def decide(head_seen: str | None) -> str:
            with said_as_read(unreadable):
                done = runs.resume_from_fields(
                    self.store,
                    self.settings,
                    self.thread_id,
                    answer,
                    agent=AGENT_NAME,
                    interrupt_id=interrupt_id,
                    expected_head=head_seen,
                    actor=self.me,
                )
            action_word, who = t(f"refund.action.{action}"), self.approver or "?"
            return t("refund.decided", case=self.case_id, action=action_word, approver=who, status=status_word(done))

        with form_labels(amount="refund.edit.amount"):  # a refused amount named by the field it was typed in
            act(self.head, decide, thread_id=self.thread_id, refused_key=REFUSED_KEY)
        note_refused_by(st.session_state, REFUSED_KEY, controls, typed_amount)

    def controls(
        self, key: str, requested: int, current: int, interrupt_id: str | None = None, title: str = ""
    ) -> None:
        """Approve / reject, then an amount to edit and approve: for the case, or one item (``interrupt_id``).

        ``key`` is the buttons' key with ``{}`` where the action goes; a ``title`` (an item's) is drawn on the buttons'
        row, so a case's first item is decided on a 1280×720 first screen. A refusal is said by the buttons clicked
        (under an item's title: under them, it fell below presenter mode's first screen); an edit's, by its amount.
        """
        if title:
            title_col, approve_col, reject_col = st.columns([2, 1, 1], vertical_alignment="top")
            title_col.markdown(escape_markdown(title))
            refused_slot = title_col.empty()
        else:
            approve_col, reject_col, refused_col = st.columns([1, 1, 2])
            refused_slot = refused_col.empty()
        cannot_approve = auth.why_not(APPROVE_REFUND, amount=current, requested_by=self.requested_by)
        primary = "primary" if interrupt_id is None else "secondary"
        if cannot_approve:
            approve_col.caption(t("auth.cannot_act", reason=cannot_approve))
        elif approve_col.button(t("refund.approve"), key=key.format("approve"), type=primary, width="stretch"):
            self.send("approve", key, interrupt_id)
        if reject_col.button(t("refund.reject"), key=key.format("reject"), width="stretch"):
            self.send("reject", key, interrupt_id)
        edit_for = self.thread_id if interrupt_id is None else f"{self.thread_id}-{interrupt_id}"
        new_amount, typed, amount_said = edit_amount(edit_for, current, requested)
        cannot_edit = new_amount is not None and auth.why_not(
            APPROVE_REFUND, amount=new_amount, requested_by=self.requested_by
        )
        why_not_slot = st.empty()  # drawn by every run: see edit_amount
        if cannot_edit:
            why_not_slot.caption(t("auth.cannot_act", reason=cannot_edit))
        # Never disabled by the amount: a button follows the value the server has, and a typed amount is sent
        # only as the field loses the focus, to that button's click; the click's run reads it and checks it.
        if st.button(t("refund.edit.submit"), key=key.format("edit")):
            self.send("edit", key.format("edit"), interrupt_id, typed)
        for controls, slot, holding in ((key, refused_slot, ""), (key.format("edit"), amount_said, typed)):
            if (why := refused_here(st.session_state, REFUSED_KEY, self.thread_id, controls, holding)) is not None:
                slot.error(escape_markdown(why))

    def item_controls(self, result: runs.RunResult, *, own_action: bool) -> None:
        """Each waiting item with its own controls, answered by its interrupt id; an item decided elsewhere
        since the page drew it keeps its controls, with a notice, so a click on it is refused."""
        waiting = list(zip(result.interrupt_ids, result.interrupts, strict=True)) if result.status == "waiting" else []
        drawn = st.session_state.get(ITEM_VIEW_KEY)
        items, gone = items_to_draw(self.thread_id, waiting, drawn, own_action=own_action)
        st.session_state[ITEM_VIEW_KEY] = (self.thread_id, tuple(items))
        for interrupt_id, question in items:
            item, item_amount = str(question.get("item", "")), int(question.get("requested_amount") or 0)
            with st.container(border=True):
                title = t("refund.items.item", item=item, amount=amount(item_amount))
                self.controls(f"{ITEM_BUTTON}{{}}-{interrupt_id}", item_amount, item_amount, interrupt_id, title)
                question_id_caption(interrupt_id)
                if (interrupt_id, question) in gone:  # under its controls: nothing above a button moves
                    st.warning(escape_markdown(t("refund.items.decided_elsewhere", item=item)))
        st.caption(t("refund.items.waiting", count=len(result.interrupts)))


def edit_amount(edit_for: str, current: int, requested: int) -> tuple[int | None, str, Any]:
    """(the approver's new amount, checked by the same rule as every path, or None and why when unusable;
    the text typed; the slot under it, where an edit's refusal takes the place of what it says).

    What it says under the amount and beside it are slots drawn by every run, empty when there is nothing to say: a
    run of the case panel replaces each element the run before drew, so a refusal never outlives the amount it
    refused. Streamlit removes an element a fragment's run did not draw only when that run's end reaches the browser
    as a fragment run's end; when another fragment's run (a live part's timer) starts before it is sent, the end is
    sent as "stopped for a rerun" and the element stays until the panel runs again.
    """
    edit_col, preview_col = st.columns(2)
    label, hint = t("refund.edit.amount"), t("refund.edit.help", requested=amount(requested))
    text = remembered_input(f"refund-edit-amount-{edit_for}", label, edit_col, placeholder=f"{current:,}", help=hint)
    said, preview = edit_col.empty(), preview_col.empty()
    if not text.strip():
        said.caption(t("refund.edit.type_amount"))
        return None, text, said
    try:
        edited = check_edit_amount(parse_whole_number(text, "amount"), requested)
    except UserError as error:
        with form_labels(amount="refund.edit.amount"):  # the field by the label above it
            said.error(escape_markdown(t("refund.edit.invalid", error=localized(error))))
        return None, text, said
    # The difference is shown before anything is sent.
    preview.metric(t("refund.edit.preview"), amount(edited), delta=amount(edited - current, signed=True))
    return edited, text, said


def decision_controls(
    store: Store, settings: Settings, result: runs.RunResult, head: str | None, *, own_action: bool
) -> None:
    """A waiting case's (or one moved on since its controls were drawn) approver, note and buttons."""
    values, thread_id = result.values, result.thread_id
    cannot_decide = auth.why_not(REJECT_REFUND)  # a viewer decides nothing; any approver may reject
    if cannot_decide:
        st.info(t("auth.cannot_act", reason=cannot_decide))
        return
    me = auth.identity()
    approver_col, note_col = st.columns(2)
    if me.local:  # local mode: the approver types their name, recorded as typed
        approver = remembered_input("refund-approver", t("field.approver"), approver_col)
    else:  # signed in: the decision is recorded as the signed-in identity
        approver = me.email
        approver_col.caption(escape_markdown(t("auth.approver_is_you", name=me.name, email=me.email)))
    note = note_col.text_input(t("field.note"), key=f"refund-note-{thread_id}")
    requested_by = str(values.get("requested_by") or "")
    case_id = str(values.get("case_id", ""))
    decider = Decider(store, settings, thread_id, case_id, head, me, approver, note, requested_by)
    if values.get("items"):
        decider.item_controls(result, own_action=own_action)
    else:
        decider.controls("refund-{}", int(values["requested_amount"]), int(values["amount"]))
