"""The inbox scale benchmark measures home's data three ways on a copy, leaving the built database as it was."""

from __future__ import annotations

import shutil
from unittest import mock

from agents import lifecycle
from agents.runtime import open_store
from benchmarks import bench_inbox_scale
from benchmarks._data import built_database
from benchmarks.bench_inbox_scale import WAYS, home_data, measure_size


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
