"""Changing a thread's state (``update_state``, a fork) and restoring an older checkpoint; admins only."""

from __future__ import annotations

from typing import Any

from agents import identity, lifecycle, readmodel
from agents.db import Store
from agents.deletion import check_head
from agents.errors import InputError, UserError
from agents.identity import LOCAL_OPERATOR, Identity, check_allowed
from agents.leases import thread_guard
from agents.loaded import is_instance
from agents.runs.core import RunResult, _drive, _graph, _signed, _snapshot, _thread_spec, current_result, run_config
from agents.settings import Settings
from agents.spec import UpdateRequest, validate_update


def update_thread(
    store: Store,
    settings: Settings,
    thread_id: str,
    values: dict[str, Any],
    *,
    as_node: str | None = None,
    checkpoint_id: str | None = None,
    expected_head: str | None = None,
    actor: Identity = LOCAL_OPERATOR,
) -> RunResult:
    """``update_state`` on the head (or, to fork, on ``checkpoint_id``); the history stays. Admins only."""
    actor = identity.held_to_roles(actor, settings.roles)  # a decision the local operator sets names its person
    check_allowed(actor, identity.UPDATE_STATE if checkpoint_id is None else identity.FORK)
    thread_id = lifecycle.thread_named(store, thread_id)
    spec = _thread_spec(store, thread_id)
    clean = validate_update(spec, _signed(spec, values, actor), as_node)
    prepared: dict[str, Any] = {}
    checked_at: list[str] = []  # the head the update was last checked on

    def check() -> None:
        seen = check_head(store, thread_id, expected_head)
        if checked_at == [seen]:  # checked before the lease on this very head: it stands under the lease
            return
        readmodel.check_checkpoint(store, thread_id, checkpoint_id)
        head = dict(_snapshot(store, settings, spec, thread_id).values)
        target = (
            head if checkpoint_id is None else dict(_snapshot(store, settings, spec, thread_id, checkpoint_id).values)
        )
        if checkpoint_id is not None:
            spec.edit.check_rerun(store, head)
        forking = checkpoint_id is not None
        request = UpdateRequest(
            head, target, dict(clean), as_node, forking, lang=readmodel.thread_language(store, thread_id)
        )
        spec.edit.authorize_update(actor, request)
        prepared.clear()
        prepared.update(spec.edit.check_update(store, request))
        checked_at[:] = [seen]

    with thread_guard(store, thread_id, check=check):
        graph = _graph(store, settings, spec)
        lang = readmodel.thread_language(store, thread_id)
        try:
            config = run_config(spec, thread_id, checkpoint_id, lang=lang)
            written = graph.update_state(config, prepared, as_node=as_node)
        except UserError:
            raise
        except (KeyError, IndexError, TypeError, ValueError) as error:
            # LangGraph evaluates the node's edges on the updated state before it saves anything: an edge
            # that reads what the node writes cannot route a state without it (an agent's check_update
            # refuses the cases it knows of before the thread's lease is taken).
            raise InputError(
                "as_node",
                f"an update as {as_node!r} cannot be routed: the edges after {as_node!r} need what that node "
                f"writes ({type(error).__name__}: {error}); choose another node",
            ) from None
        except Exception as error:  # LangGraph refuses before writing (e.g. an ambiguous writer)
            if is_instance(error, "langgraph.errors", "InvalidUpdateError"):
                raise InputError("as_node", f"LangGraph refused the update: {error}") from None
            raise
        if spec.edit.continue_after_update:
            # The agent never rests edited and unseen: it runs on from the new checkpoint at once
            # (a refund goes straight back to its approver, or, under ``reroute``, settles).
            config = run_config(spec, thread_id, written["configurable"]["checkpoint_id"], lang=lang)
            _drive(store, graph, None, config, None, actor=actor)
    return current_result(store, settings, thread_id)


def restore_checkpoint(
    store: Store,
    settings: Settings,
    thread_id: str,
    checkpoint_id: str,
    *,
    expected_head: str | None = None,
    actor: Identity = LOCAL_OPERATOR,
) -> RunResult:
    """Makes an older checkpoint the head again, as a copy (LangGraph's ``__copy__`` update).

    The way back after a fork or re-run went wrong: the failed branch stays in
    the history, and the thread continues from the copy. The agent's re-run rule
    applies (a paid refund is final). Admins only.
    """
    check_allowed(actor, identity.RESTORE)
    thread_id = lifecycle.thread_named(store, thread_id)
    spec = _thread_spec(store, thread_id)

    def check() -> None:
        check_head(store, thread_id, expected_head)
        readmodel.check_checkpoint(store, thread_id, checkpoint_id)
        spec.edit.check_rerun(store, dict(_snapshot(store, settings, spec, thread_id).values))

    with thread_guard(store, thread_id, check=check):
        config = run_config(spec, thread_id, checkpoint_id, lang=readmodel.thread_language(store, thread_id))
        _graph(store, settings, spec).update_state(config, None, as_node="__copy__")
    return current_result(store, settings, thread_id)
