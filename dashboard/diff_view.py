""" "What changed": a checkpoint against its parent (or any other checkpoint of its thread), drawn.

The comparison is :func:`agents.diff.checkpoint_diff` (the same as ``python -m agents diff``); this
module only words it. Keys, channels and values are the save file's, user or model text among them, so
each is an inline code span (:func:`code_span`: shown literally, no link, image or HTML), a value
shortened to one line by :func:`dashboard.savefile.value_preview`; the whole comparison is one click
away as JSON. The explorer calls :func:`show_checkpoint_change` for the selected checkpoint, each
agent's thread view :func:`show_head_change`, and the refund case :func:`show_requested_vs_executed`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import streamlit as st

from agents import diff, threadindex
from agents.db import Store
from agents.errors import short_id
from dashboard.formats import amount, node_name
from dashboard.i18n import t
from dashboard.safe_markdown import escape_markdown
from dashboard.savefile import value_preview
from dashboard.views import lazy_expander

#: Writes listed as lines; the rest are in the whole comparison's JSON.
WRITES_SHOWN = 30
#: The longest value preview of a change or a write.
PREVIEW = 120
#: The compare picker's option for "the selected checkpoint's parent".
PARENT = ""


def read_diff(store: Store, thread_id: str, from_id: str | None, to_id: str | None) -> diff.CheckpointDiff:
    """:func:`agents.diff.checkpoint_diff`, shared while the database is unchanged."""
    return threadindex.while_unchanged(
        store, "diff", (thread_id, from_id, to_id), lambda: diff.checkpoint_diff(store, thread_id, from_id, to_id)
    )


def change_word(change: diff.Change) -> str:
    """A change in a word or two, in the session's language: added, changed, removed, +1 message, +2 items."""
    if change.kind != "appended":
        return t(f"diff.kind.{change.kind}")
    noun = "message" if change.messages else "item"
    return t(f"diff.appended.{noun}{'' if change.count == 1 else 's'}", count=change.count)


def code_span(text: str) -> str:
    """Text as one inline code span: shown literally, whatever backticks, brackets or HTML it holds.

    The fence is one backtick longer than the longest run inside; a space pads text that begins or ends
    with a backtick or a space (CommonMark strips one from each side). An empty text is shown as ``""``.
    """
    text = " ".join(text.split()) or '""'  # one line
    fence = "`" * (1 + max((len(run) for run in re.findall(r"`+", text)), default=0))
    pad = " " if text[0] in "` " or text[-1] in "` " else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def change_line(change: diff.Change) -> str:
    """One change as a Markdown list item: ``**changed** `key`: `before` → `after```; keys and values are code."""
    if change.kind == "appended":
        shown = code_span(value_preview(change.after, PREVIEW))
    elif change.kind == "added":
        shown = code_span(value_preview(change.after, PREVIEW))
    elif change.kind == "removed":
        shown = code_span(value_preview(change.before, PREVIEW))
    else:
        shown = (
            f"{code_span(value_preview(change.before, PREVIEW))} → {code_span(value_preview(change.after, PREVIEW))}"
        )
    return f"- **{change_word(change)}** {code_span(change.key)}: {shown}"  # the word is the catalogue's


def write_line(write: diff.DiffWrite) -> str:
    """One write as a Markdown list item: checkpoint it produced, node, `channel` = `value`."""
    where = escape_markdown(f"{short_id(write.produced)} · {node_name(write.node)}")
    return f"- {where} · {code_span(write.channel)} = {code_span(value_preview(write.value, PREVIEW))}"


#: The sources whose checkpoints have a reason of their own to list no writes (``diff.writes.none.<source>``): a
#: copy (a re-run or a restore, LangGraph's ``fork``) is written by no node; an update_state on a checkpoint whose
#: node had already written keeps none of its own. Any other (a step whose nodes wrote nothing) is said plainly.
NO_WRITES_SOURCES = ("fork", "update")


def no_writes_words(found: diff.CheckpointDiff) -> str:
    """Why no write produced the selected checkpoint, as is true of its source (``python -m agents diff`` says
    ``writes: none`` for each): a re-run's copy never reads as an update_state that never happened."""
    source = found.after.source if found.after.source in NO_WRITES_SOURCES else "step"
    return t(f"diff.writes.none.{source}")


def _side_word(side: diff.Side | None) -> str:
    return t("diff.side", short=short_id(side.checkpoint_id), step=side.step) if side else t("diff.empty_state")


def relation_words(found: diff.CheckpointDiff) -> str:
    """Which two checkpoints, and how they are related, in one line."""
    relation = t(f"diff.relation.{found.relation}", ancestor=short_id(found.common_ancestor))
    return t("diff.between", before=_side_word(found.before), after=_side_word(found.after), relation=relation)


def show_diff(found: diff.CheckpointDiff, key: str, *, whole: bool = True) -> None:
    """The changes, the writes that produced them and, on request (``whole``), the whole comparison as JSON.

    ``whole=False`` inside an expander (Streamlit nests none). Every call draws the same elements, each part
    in a slot left empty when there is nothing to say, so in a live part (an agent's thread) a head whose
    comparison says less keeps no line of the one before (see :mod:`dashboard.boxes`).
    """
    st.caption(escape_markdown(relation_words(found)))
    if found.changes:
        st.markdown("\n".join(change_line(change) for change in found.changes))
    else:
        st.markdown(t("diff.no_changes"))
    title, left_out, written = st.empty(), st.empty(), st.empty()
    # Nothing was written on the way to a checkpoint the same as, or older than, the other, or to a first one.
    writes_shown = found.relation not in ("same", "descendant") and (found.before is not None or bool(found.writes))
    if writes_shown:
        title.markdown(f"**{t('diff.writes')}**")
        if found.writes_left_out:
            left_out.caption(t("diff.writes.left_out", count=found.writes_left_out))
        if not found.writes:
            written.caption(no_writes_words(found))
        else:
            lines = [write_line(write) for write in found.writes[:WRITES_SHOWN]]
            if len(found.writes) > WRITES_SHOWN:
                lines.append(f"- {t('diff.writes.more', count=len(found.writes) - WRITES_SHOWN)}")
            written.markdown("\n".join(lines))
    if whole and writes_shown and (box := lazy_expander(t("diff.whole"), f"diff-whole-{key}")) is not None:
        box.json(found.to_json(), expanded=2)


def show_checkpoint_change(
    store: Store,
    thread_id: str,
    checkpoint_id: str,
    others: Sequence[str],
    format_other: Callable[[str], str],
) -> None:
    """The explorer's section: the checkpoint against its parent, or another checkpoint picked from ``others``."""
    st.markdown(f"**{t('diff.title')}**", help=t("diff.help"))
    pick_key = f"diff-from-{thread_id}-{checkpoint_id}"
    options = [PARENT, *(other for other in others if other != checkpoint_id)]
    if st.session_state.get(pick_key) not in options:
        st.session_state[pick_key] = PARENT
    picked = st.selectbox(
        t("diff.compare_with"),
        options,
        key=pick_key,
        format_func=lambda other: t("diff.parent") if other == PARENT else format_other(other),
    )
    show_diff(read_diff(store, thread_id, picked or None, checkpoint_id), f"{thread_id}-{checkpoint_id}")


def show_head_change(store: Store, thread_id: str, page: str) -> None:
    """An agent's thread view: what its head changed against its parent, collapsed until opened."""
    if (box := lazy_expander(t("diff.head"), f"{page}-diff-open")) is not None:
        with box:
            show_diff(read_diff(store, thread_id, None, None), f"{page}-{thread_id}", whole=False)


def amount_words(requested: object, executed: object, rejected: bool, waiting: int = 0) -> str:
    """A case's requested amount against the executed one, in one line (amounts only, no user text).

    ``waiting``: what a case with items still waits on; then the paid amount is what is paid so far, not a
    cut, and the line says both.
    """
    if waiting > 0:
        paid = executed if isinstance(executed, int) and not isinstance(executed, bool) else 0
        return t("diff.amount.partial", requested=amount(requested), paid=amount(paid), waiting=amount(waiting))
    if not isinstance(executed, int) or isinstance(executed, bool):
        return t("diff.amount.rejected" if rejected else "diff.amount.pending", requested=amount(requested))
    if not diff.diff_values({"amount": requested}, {"amount": executed}):
        return t("diff.amount.same", requested=amount(requested))
    delta = executed - requested if isinstance(requested, int) else None
    return t(
        "diff.amount.changed",
        requested=amount(requested),
        executed=amount(executed),
        delta=amount(delta, signed=True),
    )


def show_requested_vs_executed(requested: object, executed: object, rejected: bool, waiting: int = 0) -> None:
    """The refund case's requested amount against what was paid (and what still waits), as a diff line."""
    st.markdown(f"**{t('diff.amount.title')}**")
    st.markdown(f"- {escape_markdown(amount_words(requested, executed, rejected, waiting))}")
