"""The compiled graphs a process keeps: one per store, agent and options, the build's defaults filled in."""

from __future__ import annotations

from agents import runtime
from agents.refund.rules import DEFAULT_POLICY, DEFAULT_THRESHOLD


def test_a_graph_asked_for_with_its_default_options_is_the_one_asked_for_without(store, settings):
    """The readers ask for a thread's graph without options, the writers with the settings' options: under
    default settings both are the same graph, built once per store."""
    plain = runtime.graph(store, "refund")
    assert runtime.graph(store, "refund", **runtime.graph_options(settings, "refund")) is plain
    assert runtime.graph(store, "refund", policy=DEFAULT_POLICY, threshold=DEFAULT_THRESHOLD) is plain
    other = runtime.graph(store, "refund", policy="reroute")
    assert other is not plain and runtime.graph(store, "refund", policy="reroute") is other
