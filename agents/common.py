"""Pieces every agent's graph factory shares."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from langgraph.channels.last_value import LastValue
from langgraph.checkpoint.base import BaseCheckpointSaver

from agents.db import Store
from agents.nodelog import LabelFunction, logged_node
from agents.texts import LANGUAGE_METADATA_KEY, language_or_default


class MissingCheckpointerError(TypeError):
    """A graph factory was called without a checkpointer."""


def require_checkpointer(checkpointer: Any, agent: str) -> BaseCheckpointSaver:
    """Returns the checkpointer, or raises when there is none.

    A graph compiled without a checkpointer runs, returns a half-finished state
    at the first pause and can never be resumed, all without an error. The
    factories refuse to build one, so that mistake cannot happen silently.
    """
    if not isinstance(checkpointer, BaseCheckpointSaver):
        raise MissingCheckpointerError(
            f"the {agent} graph needs a checkpointer (a LangGraph BaseCheckpointSaver, "
            f"e.g. SqliteSaver); got {checkpointer!r}. Without one, a paused run "
            "cannot be resumed."
        )
    return checkpointer


class WriteOnce(LastValue[Any]):
    """A state key that keeps the first value written to it: ``Annotated[int, WriteOnce]``.

    For what a run records once and a rule later relies on (a refund's requested amount, the policy
    and threshold it was assessed under). The rule then holds on every path that writes state, the
    project's own and LangGraph's (``update_state``, ``Command(update=...)``, LangGraph Studio): a later
    value, equal or not, is ignored and the first one stays. Unlike a reducer, LangGraph's ``Overwrite``
    cannot replace it.

    It ignores rather than raises: LangGraph saves a ``Command``'s update as a pending write before it
    applies it, and applies it again on every ``get_state``, so a refusal there would leave the thread
    unreadable. The project's own paths refuse such a write with a message before it reaches LangGraph
    (only a spec's ``state_fields`` may be updated).
    """

    __slots__ = ()

    def update(self, values: Sequence[Any]) -> bool:
        if len(values) == 1 and self.is_available():
            return False  # written already: the first value stays
        return super().update(values)  # none, the first, or several at once (refused as LastValue does)


def node_decorator(store: Store | None, agent: str) -> Callable[..., Callable[..., Any]]:
    """Returns ``log(node, label_of=None)``: the node-log wrapper, or identity without a store."""

    def log(node: Callable[..., Any], label_of: LabelFunction | None = None) -> Callable[..., Any]:
        if store is None:
            return node
        return logged_node(store, agent, node, label_of=label_of)

    return log


def run_language(config: Any) -> str:
    """The language of the run a node runs in (``ko`` or ``en``), from its config's metadata.

    ``agents.runs`` records it when a run starts and passes the thread's recorded language on
    every later operation; a run without one (saved before languages, or a bare ``invoke``) is English.
    """
    metadata = (config or {}).get("metadata") or {}
    return language_or_default(metadata.get(LANGUAGE_METADATA_KEY))
