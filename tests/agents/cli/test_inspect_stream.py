"""``inspect`` streams its output, byte for byte what printing the whole document at once gave."""

from __future__ import annotations

import json

import pytest

from agents import readmodel, runs
from agents.cli.core import inspect_checkpoint, print_json_list_document
from tests.factories import answer_robot


def _forked_robot(store, settings):
    """Answered, then update_state at the pause and a re-run from step 0: branches, a fork, leaves."""
    answer_robot(store, settings)
    main = readmodel.checkpoint_chain(store, "hitl_demo")
    paused = next(c for c in main if c.next == ("approval",))
    runs.update_thread(
        store, settings, "hitl_demo", {"decision": "no"}, as_node="approval", checkpoint_id=paused.checkpoint_id
    )
    runs.continue_thread(store, settings, "hitl_demo", checkpoint_id=main[0].checkpoint_id)


def _document_read_checkpoint_by_checkpoint(store, thread_id):
    """The ``inspect --json`` document as it was built before streaming: a whole list, one read per checkpoint."""
    checkpoints = []
    for entry in readmodel.checkpoint_chain(store, thread_id):
        detail = readmodel.checkpoint_detail(store, thread_id, entry.checkpoint_id)
        checkpoints.append(inspect_checkpoint(entry, detail))
    counts = readmodel.table_counts(store, thread_id)
    return {"thread_id": thread_id, "counts": counts, "checkpoints": checkpoints}


@pytest.mark.usefixtures("backend")
def test_inspect_json_is_byte_identical_to_the_whole_document(run_cli, store, settings):
    _forked_robot(store, settings)
    expected = json.dumps(
        readmodel.to_jsonable(_document_read_checkpoint_by_checkpoint(store, "hitl_demo")), ensure_ascii=False, indent=2
    )
    result = run_cli("inspect", "hitl_demo", "--json")
    assert result.code == 0
    assert result.out == expected + "\n"
    assert len(json.loads(result.out)["checkpoints"]) >= 6


@pytest.mark.usefixtures("backend")
def test_inspect_text_prints_every_checkpoint_then_the_counts(run_cli, store, settings):
    _forked_robot(store, settings)
    document = _document_read_checkpoint_by_checkpoint(store, "hitl_demo")
    lines = run_cli("inspect", "hitl_demo").out.splitlines()
    assert [line.split("  id ")[1].split()[0] for line in lines if line.startswith("step ")] == [
        cp["checkpoint_id"] for cp in document["checkpoints"]
    ]
    counts = document["counts"]
    assert lines[-1] == f"checkpoints {counts['checkpoints']}, writes {counts['writes']}"


@pytest.mark.parametrize(
    "items", [[], [{"a": [1, {"b": "x\ny"}], "c": {}}], [{"k": "한국어"}, [], {"n": None, "l": [[]]}]]
)
def test_the_streamed_document_equals_json_dumps(capsys, items):
    head = {"thread_id": "t", "counts": {"checkpoints": 1, "writes": 2}}
    print_json_list_document(head, "checkpoints", iter(items))
    expected = json.dumps({**head, "checkpoints": items}, ensure_ascii=False, indent=2)
    assert capsys.readouterr().out == expected + "\n"
