"""Checkpoint explorer: a thread's parent-chained checkpoints as a Plotly graph.

Pick an agent and a thread (or open ``?thread=ID``), select a checkpoint by
clicking its point or in the list, read its decoded state, metadata and
writes, and re-run or fork from it. The chain is read with plain SQL
(``readmodel.checkpoint_chain``); only the selected checkpoint is decoded.
"""

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pandas as pd
import streamlit as st

from agents import lifecycle, readmodel, runs, threadindex
from agents.chain_layout import orphan_ids
from agents.errors import RunFailedError, short_checkpoint_id
from agents.identity import FORK
from agents.registry import AGENTS
from agents.validation import parse_json_object
from dashboard import auth, resources
from dashboard.checkpoint_figure import DEFAULT_LABELS, checkpoint_figure
from dashboard.forms import UNCHANGED, act, drawn_head, show_flash, sidebar_forms, status_word
from dashboard.i18n import t
from dashboard.views import bounded_select, keep_valid, pick_thread, show_table

AGENT_KEY = "explorer-agent"
THREAD_KEY = "explorer-thread"
SELECT_HEAD_KEY = "explorer:select-head"
BACK_TO_KEY = "explorer:back-to"  # (thread, earlier head) selected after a failed re-run or fork

store, settings = resources.store(), resources.settings()

st.title(t("explorer.title"))
st.caption(t("explorer.intro"))
st.caption(t("explorer.root_only"))
show_flash()


def _pick_thread(threads: list[lifecycle.ThreadStatus]) -> str | None:
    """Agent and thread pickers; returns the chosen thread id (None: the agent has no threads)."""
    _agent, thread_id, _rest = pick_thread(
        threads, page="explorer", agent_key=AGENT_KEY, thread_key=THREAD_KEY, empty_key="explorer.no_threads_for_agent"
    )
    return thread_id


def _option_label(point: readmodel.ChainCheckpoint) -> str:
    flags = [t("explorer.flag.head")] if point.is_head else []
    flags += [t("explorer.flag.waiting")] if point.is_waiting else []
    return t(
        "explorer.option",
        step=point.step,
        source=point.source,
        short=short_checkpoint_id(point.checkpoint_id),
        flags=f" · {', '.join(flags)}" if flags else "",
    )


def _clicked_checkpoint(chart_key: str) -> str | None:
    """The checkpoint id of the point clicked in the figure (its customdata), if any."""
    event = st.session_state.get(chart_key)
    points = (event or {}).get("selection", {}).get("points", []) if isinstance(event, dict) else []
    if not points:
        return None
    data = points[0].get("customdata")
    if isinstance(data, list | tuple):
        data = data[0] if data else None
    return data if isinstance(data, str) else None


def _sync_selection(thread_id: str, chain: list[readmodel.ChainCheckpoint], chart_key: str) -> str:
    """Resolves the selected checkpoint before the widgets are drawn: a new click wins, else the list."""
    select_key = f"explorer-checkpoint-{thread_id}"
    ids = [c.checkpoint_id for c in chain]
    head = next(c.checkpoint_id for c in chain if c.is_head)
    if st.session_state.pop(SELECT_HEAD_KEY, False):
        st.session_state[select_key] = head
    back_to = st.session_state.pop(BACK_TO_KEY, None)
    if back_to and back_to[0] == thread_id and back_to[1] in ids:
        st.session_state[select_key] = back_to[1]
        st.info(t("explorer.back_to", checkpoint=short_checkpoint_id(back_to[1])))
    clicked = _clicked_checkpoint(chart_key)
    last_click_key = f"explorer:last-click-{thread_id}"
    if clicked in ids and clicked != st.session_state.get(last_click_key):
        st.session_state[select_key] = clicked
    st.session_state[last_click_key] = clicked
    keep_valid(select_key, ids, head)
    return select_key


def _writes_frame(writes: tuple[readmodel.WriteRecord, ...]) -> pd.DataFrame:
    """Writes as text: task id, node, channel (``__interrupt__``, ``branch:to:*`` as stored), value."""
    return pd.DataFrame(
        {
            t("col.task_id"): [w.task_id for w in writes],
            t("col.node"): [w.node for w in writes],
            t("col.channel"): [w.channel for w in writes],
            t("col.value"): [json.dumps(readmodel.to_jsonable(w.value), ensure_ascii=False) for w in writes],
        }
    )


def _show_detail(detail: readmodel.CheckpointDetail) -> None:
    st.subheader(t("explorer.selected", checkpoint=short_checkpoint_id(detail.checkpoint_id)))
    st.markdown(
        t(
            "explorer.ids",
            checkpoint=detail.checkpoint_id,
            parent=detail.parent_checkpoint_id or "-",
            next=", ".join(detail.next) or "-",
        )
    )
    state_col, meta_col = st.columns([3, 2])
    with state_col:
        st.markdown(f"**{t('explorer.state')}**")
        st.json(readmodel.to_jsonable(detail.values))
    with meta_col:
        st.markdown(f"**{t('explorer.metadata')}**")
        st.json(readmodel.to_jsonable(detail.metadata), expanded=False)
    st.markdown(f"**{t('explorer.writes')}**", help=t("explorer.writes.help"))
    show_table(_writes_frame(detail.writes), t("explorer.no_writes"))


def _editable_values(spec: Any, values: dict[str, Any]) -> str:
    """The fork editor's starting text: the checkpoint's values of the keys that may be updated."""
    keys = [f.name for f in spec.state_fields if f.name in values]
    return json.dumps({k: readmodel.to_jsonable(values[k]) for k in keys}, ensure_ascii=False, indent=2)


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
    if auth.why_not(FORK):  # re-run, restore and fork are for admins (as runs checks)
        st.info(t("auth.admin_only"))
        return
    me = auth.identity()
    rerun_col, fork_col = st.columns([1, 2])
    if rerun_col.button(t("explorer.rerun"), key="explorer-rerun", help=t("explorer.rerun.help"), type="primary"):

        def rerun(expected: str | None) -> str:
            with back_to_head_on_failure(thread_id, head):
                result = runs.continue_thread(
                    store, settings, thread_id, checkpoint_id=checkpoint_id, expected_head=expected, actor=me
                )
            st.session_state[SELECT_HEAD_KEY] = True
            return t("explorer.rerun.done", thread=thread_id, checkpoint=short, status=status_word(result))

        act(expected_rerun, rerun)
    if checkpoint_id != head and rerun_col.button(
        t("explorer.restore"), key="explorer-restore", help=t("explorer.restore.help")
    ):

        def restore(expected: str | None) -> str:
            result = runs.restore_checkpoint(
                store, settings, thread_id, checkpoint_id, expected_head=expected, actor=me
            )
            st.session_state[SELECT_HEAD_KEY] = True
            return t("explorer.restore.done", thread=thread_id, checkpoint=short, status=status_word(result))

        act(expected_restore, restore)
    with fork_col, st.form(f"explorer-fork-{thread_id}"):
        st.markdown(f"**{t('explorer.fork.title')}**")
        raw = st.text_area(
            t("explorer.fork.values"),
            value=_editable_values(spec, detail.values),
            key=f"explorer-fork-values-{checkpoint_id}",
            help=t("explorer.fork.values.help", keys=", ".join(f.name for f in spec.state_fields)),
        )
        as_node = st.selectbox(
            t("explorer.fork.as_node"),
            [UNCHANGED, *spec.as_nodes],
            key=f"explorer-fork-asnode-{thread_id}",
            help=t("forms.as_node.help"),
        )
        continue_after = st.checkbox(t("explorer.fork.continue"), key=f"explorer-fork-continue-{thread_id}")
        submitted = st.form_submit_button(t("explorer.fork.submit"))
    if submitted:

        def fork(expected: str | None) -> str:
            values = parse_json_object(raw, "values")
            node = None if as_node == UNCHANGED else as_node
            with back_to_head_on_failure(thread_id, head):
                result = runs.update_thread(
                    store,
                    settings,
                    thread_id,
                    values,
                    as_node=node,
                    checkpoint_id=checkpoint_id,
                    expected_head=expected,
                    actor=me,
                )
                if continue_after and result.status == "attention" and result.next:
                    result = runs.continue_thread(
                        store, settings, thread_id, expected_head=result.head_checkpoint_id, actor=me
                    )
            st.session_state[SELECT_HEAD_KEY] = True
            return t("explorer.fork.done", thread=thread_id, checkpoint=short, status=status_word(result))

        act(expected_fork, fork)


@contextmanager
def back_to_head_on_failure(thread_id: str, head: str) -> Iterator[None]:
    """When a re-run or fork fails, selects the earlier head, so "restore as head" is one click away."""
    try:
        yield
    except RunFailedError:
        st.session_state[BACK_TO_KEY] = (thread_id, head)
        raise


def _figure_labels() -> dict[str, str]:
    return {name: t(f"explorer.fig.{name}") for name in DEFAULT_LABELS}


threads = lifecycle.thread_statuses(store)
thread_id = _pick_thread(threads) if threads else None
if not threads:
    st.info(t("explorer.empty_db"))
chain = (
    threadindex.while_unchanged(store, "chain", thread_id, lambda: readmodel.checkpoint_chain(store, thread_id))
    if thread_id
    else []
)
if thread_id and not chain:  # deleted since the list was read
    st.warning(t("explorer.unknown_thread", thread=thread_id))
if thread_id and chain:  # chain implies thread_id; tested again so mypy knows it is a str
    head = next(c.checkpoint_id for c in chain if c.is_head)
    by_id = {c.checkpoint_id: c for c in chain}
    chart_key = f"explorer-chart-{thread_id}"
    select_key = _sync_selection(thread_id, chain, chart_key)
    selected = st.session_state[select_key]
    figure = checkpoint_figure(chain, selected_id=selected, labels=_figure_labels())
    lanes = 1 + max(figure.layout.yaxis.tickvals or (0,))
    st.caption(t("explorer.summary", count=len(chain), lanes=lanes, head=short_checkpoint_id(head)))
    orphans = orphan_ids(chain)
    if orphans:
        st.warning(t("explorer.orphans", count=len(orphans)))
    st.plotly_chart(
        figure,
        key=chart_key,
        on_select="rerun",
        selection_mode="points",
        config={"scrollZoom": True, "displaylogo": False},
    )
    bounded_select(
        t("explorer.checkpoint"),
        list(by_id),
        key=select_key,
        format_func=lambda cid: _option_label(by_id[cid]),
        search_text=lambda cid: f"{by_id[cid].step} {by_id[cid].source} {cid} {' '.join(by_id[cid].next)}",
    )
    detail = readmodel.checkpoint_detail(store, thread_id, selected)
    if detail is None:
        st.warning(t("explorer.gone"))
    else:
        _show_detail(detail)
        _actions(thread_id, head, detail)

sidebar_forms(store, settings, thread_id if chain else None)
