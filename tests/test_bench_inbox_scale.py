"""The inbox scale benchmark measures home's data three ways on a copy, leaving the built database as it was;
a part it switches off for a comparison leaves every status as it was."""

from __future__ import annotations

import shutil
from unittest import mock

import pytest

from agents import lifecycle, readcache, statusindex, summarytable
from agents.runtime import open_store
from benchmarks import bench_inbox_scale
from benchmarks._data import built_database
from benchmarks.bench_inbox_scale import WAYS, WITHOUT, home_data, measure_size, switch_off


@pytest.mark.slow  # three measuring processes, each importing the project (about 9 s)
def test_each_way_is_measured_on_a_copy_and_home_s_data_is_its_pages_or_every_status(tmp_path, monkeypatch):
    source = built_database(tmp_path / "data", 6, 5, log=lambda _line: None)
    before = source.read_bytes()
    work = tmp_path / "work"
    work.mkdir()
    found = measure_size(source, work, 1)
    assert set(found) == set(WAYS) and all(seconds > 0 for seconds in found.values())
    assert source.read_bytes() == before  # the writes went to the copy
    copy = tmp_path / "read.sqlite"
    shutil.copyfile(source, copy)
    store = open_store(copy)
    try:
        every = lifecycle.thread_statuses(store)
        # the pages hold every row of so few threads
        assert home_data(store) == len(lifecycle.unfinished(every)) + len(every)
        with mock.patch.object(bench_inbox_scale, "HOME_ROWS", 1):
            assert home_data(store) == 1 + len({s.agent for s in every})  # one row of each list
            monkeypatch.setenv("HITL_BENCH_WHOLE", "1")
            assert home_data(store) == len(lifecycle.unfinished(every)) + len(every)
    finally:
        store.close()


def test_without_a_part_every_status_is_the_same_and_a_part_it_does_not_know_is_refused(tmp_path, monkeypatch):
    """A comparison "without" a cache or the kept tables compares the same answers, computed again."""
    source = built_database(tmp_path / "data", 6, 5, log=lambda _line: None)

    def statuses(name: str) -> list[lifecycle.ThreadStatus]:  # read by a new store, as a new process would
        copy = tmp_path / f"{name}.sqlite"
        shutil.copyfile(source, copy)
        store = open_store(copy)
        try:
            return lifecycle.thread_statuses(store)
        finally:
            store.close()

    expected = statuses("with")
    assert {s.status for s in expected} >= {"waiting", "done"}
    for part in WITHOUT:
        with monkeypatch.context() as patch:
            switch_off(part, patch.setattr)
            if part == "caches":  # nothing kept from one call to the next
                owner = type("Owner", (), {})()
                readcache.cache_for(owner, "probe").put("key", 1)
                assert readcache.cache_for(owner, "probe").lookup("key") is None
            else:  # no row read from either table
                assert statusindex.read(None) is None
                assert summarytable.stored_rows(None, [("t", "h", "a")]) == ({}, set())
            assert statuses(part) == expected, part
    owner = type("Owner", (), {})()
    readcache.cache_for(owner, "probe").put("key", 1)
    assert readcache.cache_for(owner, "probe").lookup("key") == 1  # switched on again after the test's context
    with pytest.raises(ValueError, match="caches, kept-tables"):
        switch_off("everything")
