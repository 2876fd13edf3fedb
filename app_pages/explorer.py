"""Checkpoint explorer: a thread's parent-chained checkpoints as a Plotly graph.

Pick an agent and a thread (or open ``?thread=ID``; the thread picked goes to the URL), select a checkpoint by
clicking its point or in the list, re-run or fork from it, and read its
decoded state, metadata and writes. A long thread is drawn a window at a
time (``dashboard.explorer_view``); only the selected checkpoint is decoded.
The threads deleted before they finished are listed above, folded (``dashboard.deleted_view``; open, the
thread first, at ``?deleted=ID``).
"""

import streamlit as st

from agents import readmodel, runs, statuspages
from agents.chain_layout import WINDOW_SIZE
from agents.errors import short_checkpoint_id
from agents.identity import FORK
from agents.registry import AGENTS
from agents.validation import parse_json_object
from dashboard import auth, deleted_view, diff_view, resources
from dashboard import explorer_view as view
from dashboard.checkpoint_figure import VIEW_STEPS, columns_figure
from dashboard.forms import UNCHANGED, act, drawn_head, show_flash, sidebar_forms, status_word
from dashboard.i18n import form_labels, t
from dashboard.safe_markdown import escape_markdown
from dashboard.views import bounded_select

store, settings = resources.store(), resources.settings()

st.title(t("explorer.title"))
st.caption(t("explorer.intro"))
st.caption(t("explorer.root_only"))
if not st.session_state.get(view.FLASH_HERE_KEY):
    show_flash()  # a sidebar form's message; the page's own actions show theirs beside their buttons


def _actions(thread_id: str, head: str, detail: readmodel.CheckpointDetail) -> None:
    """Re-run from, or fork at, the selected checkpoint; both refuse a stale view."""
    spec = AGENTS[readmodel.thread_agent(store, thread_id) or ""]
    checkpoint_id = detail.checkpoint_id
    short = short_checkpoint_id(checkpoint_id)
    expected_rerun = drawn_head("explorer-rerun", thread_id, head)
    expected_fork = drawn_head("explorer-fork", thread_id, head)
    expected_restore = drawn_head("explorer-restore", thread_id, head)
    st.subheader(t("explorer.actions"))
    st.caption(t("explorer.actions.help"))
    if st.session_state.pop(view.FLASH_HERE_KEY, False):
        show_flash()
    if auth.why_not(FORK):  # re-run, restore and fork are for admins (as runs checks)
        st.info(t("auth.admin_only"))
        return
    me = auth.identity()
    rerun_col, fork_col = st.columns([1, 2])
    # Keyed by thread, as the fork form is: a click drawn for one thread never counts for another
    # (the picker moves on by itself when another tab deletes the thread shown).
    rerun_key, restore_key = f"explorer-rerun-{thread_id}", f"explorer-restore-{thread_id}"
    if rerun_col.button(t("explorer.rerun"), key=rerun_key, help=t("explorer.rerun.help"), type="primary"):

        def rerun(expected: str | None) -> str:
            with view.back_to_head_on_failure(thread_id, head):
                result = runs.continue_thread(
                    store, settings, thread_id, checkpoint_id=checkpoint_id, expected_head=expected, actor=me
                )
            view.select_head_here()
            return t("explorer.rerun.done", thread=thread_id, checkpoint=short, status=status_word(result))

        act(expected_rerun, rerun, thread_id=thread_id)
    if checkpoint_id != head and rerun_col.button(
        t("explorer.restore"), key=restore_key, help=t("explorer.restore.help")
    ):

        def restore(expected: str | None) -> str:
            result = runs.restore_checkpoint(
                store, settings, thread_id, checkpoint_id, expected_head=expected, actor=me
            )
            view.select_head_here()
            return t("explorer.restore.done", thread=thread_id, checkpoint=short, status=status_word(result))

        act(expected_restore, restore, thread_id=thread_id)
    with fork_col, st.form(f"explorer-fork-{thread_id}"):
        st.markdown(f"**{t('explorer.fork.title')}**")
        raw = st.text_area(
            t("explorer.fork.values"),
            value=view.editable_values(spec, detail.values),
            key=f"explorer-fork-values-{checkpoint_id}",
            help=t("explorer.fork.values.help", keys=", ".join(f"`{f.name}`" for f in spec.edit.state_fields)),
        )
        as_node = st.selectbox(
            t("explorer.fork.as_node"),
            [UNCHANGED, *spec.edit.as_nodes],
            key=f"explorer-fork-asnode-{thread_id}",
            help=t("forms.as_node.help"),
        )
        continue_after = st.checkbox(t("explorer.fork.continue"), key=f"explorer-fork-continue-{thread_id}")
        submitted = st.form_submit_button(t("explorer.fork.submit"))
    if submitted:

        def fork(expected: str | None) -> str:
            values = parse_json_object(raw, "values")
            node = None if as_node == UNCHANGED else as_node
            with view.back_to_head_on_failure(thread_id, head):
                result = view.fork_at(
                    store,
                    settings,
                    thread_id,
                    checkpoint_id,
                    values,
                    as_node=node,
                    expected_head=expected,
                    actor=me,
                    continue_after=continue_after,
                )
            view.select_head_here()
            return t("explorer.fork.done", thread=thread_id, checkpoint=short, status=status_word(result))

        with form_labels(values="explorer.fork.values", as_node="explorer.fork.as_node"):
            act(expected_fork, fork, thread_id=thread_id)


deleted_view.show_deleted_threads(store)  # folded; open when a deletion's notification links here
any_thread = bool(statuspages.threads_page(store, limit=1).items)
thread_id, gone = view.open_thread(store) if any_thread else (None, None)
if not any_thread:
    st.info(t("explorer.empty_db"))
tree, rows_of, head = view.chain_tree(store, thread_id) if thread_id else (None, {}, "")
if thread_id and not rows_of:  # deleted since the list was read
    st.warning(escape_markdown(t("explorer.unknown_thread", thread=thread_id)))
if thread_id and tree is not None and rows_of:
    chart_key = f"explorer-chart-{thread_id}"
    select_key = view.sync_selection(thread_id, rows_of, head, chart_key)
    selected = st.session_state[select_key]
    count = len(tree.points)
    st.caption(t("explorer.summary", count=count, lanes=1 + max(tree.lanes), head=short_checkpoint_id(head)))
    if tree.orphans:
        st.warning(t("explorer.orphans", count=len(tree.orphans)))
    show_all = count > WINDOW_SIZE and st.toggle(
        t("explorer.show_all", count=f"{count:,}"), key=f"explorer-all-{thread_id}", help=t("explorer.show_all.help")
    )
    drawn = view.drawn_columns(store, thread_id, tree, rows_of, head, selected, show_all=show_all)
    if len(drawn.points) < count:
        st.caption(t("explorer.window", shown=len(drawn.points), count=f"{count:,}"))
    figure = columns_figure(
        drawn, selected_id=selected, labels=view.figure_labels(), view_steps=None if show_all else VIEW_STEPS
    )
    st.plotly_chart(
        figure,
        key=chart_key,
        on_select="rerun",
        selection_mode="points",
        config={"scrollZoom": True, "displaylogo": False},
    )
    st.caption(t("explorer.figure.help"))
    by_id = {c.checkpoint_id: c for c in drawn.points}
    label = view.labeller(drawn, branched=len(set(tree.lanes)) > 1)
    if selected not in by_id and by_id:  # deleted since the tree was read
        selected = st.session_state[select_key] = head if head in by_id else next(iter(by_id))
    bounded_select(
        t("explorer.checkpoint"),
        list(by_id),
        key=select_key,
        format_func=label,
        search_text=lambda cid: view.search_text(by_id[cid]),
    )
    detail = readmodel.checkpoint_detail(store, thread_id, selected)
    if detail is None:
        st.warning(t("explorer.gone"))
    else:
        view.show_detail(detail)
        others = [cid for cid in by_id if cid != selected]  # against its parent, or any checkpoint drawn
        diff_view.show_checkpoint_change(store, thread_id, selected, others, label)
        _actions(thread_id, head, detail)
        view.show_writes(detail)

# The head the chart drew; a thread shown before and gone now: a form sent for it is refused, saying why.
sidebar_forms(store, settings, thread_id or gone, head or None)
