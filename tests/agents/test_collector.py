"""The cyclic collector pause that the chain read and the checkpoint figure run in."""

from __future__ import annotations

import gc

import pytest

from agents.collector import collector_paused


def test_the_collector_is_paused_inside_and_runs_again_after():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_the_collector_runs_again_after_a_block_that_raises():
    with pytest.raises(RuntimeError), collector_paused():
        raise RuntimeError("boom")
    assert gc.isenabled()


def test_an_inner_pause_leaves_the_collector_to_the_outer_one():
    with collector_paused():
        with collector_paused():
            pass
        assert not gc.isenabled()  # the outer block still builds
    assert gc.isenabled()


def test_a_collector_switched_off_by_the_caller_stays_off():
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
