"""Tests for dashboard.explorer_view: the explorer's checkpoint list, click, writes and fork editor."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from agents import runs
from agents.chain_layout import layout_columns
from agents.errors import short_checkpoint_id
from agents.identity import LOCAL_OPERATOR
from agents.readmodel import ChainCheckpoint, WriteRecord
from dashboard.checkpoint_hover import lane_label
from dashboard.explorer_view import (
    clicked_checkpoint,
    editable_values,
    figure_labels,
    fork_at,
    labeller,
    option_label,
    search_text,
    writes_frame,
)


def point(cid: str, parent: str | None, step: int, *, source: str = "loop", head: bool = False) -> ChainCheckpoint:
    return ChainCheckpoint(cid, parent, step, source, (), ("review",) if head else (), head, head)


def test_a_checkpoint_is_labelled_with_its_step_source_short_id_and_flags():
    plain = point("1f0a-0000-0000-0000-00000000abcd", None, 0, source="input")
    head = point("1f0a-0000-0000-0000-00000000ef01", None, 3, head=True)

    assert option_label(plain, 0, branched=False) == f"step 0 · input · {short_checkpoint_id(plain.checkpoint_id)}"
    assert option_label(head, 1, branched=True).endswith(" · branch 1, head, waiting")
    assert option_label(plain, 0, branched=True).endswith(" · main")
    assert option_label(point("x", None, 1, source="odd"), 0, branched=False).startswith("step 1 · odd · ")


def test_the_labeller_gives_each_drawn_checkpoint_its_own_branch():
    drawn = layout_columns([point("a", None, 0), point("b", "a", 1), point("c", "a", 1)])
    label = labeller(drawn, branched=True)

    assert sorted(label(cid).rsplit(" · ", 1)[1] for cid in ("a", "b", "c")) == ["branch 1", "main", "main"]


def test_the_list_names_each_lane_as_the_chart_does_in_both_languages(monkeypatch):
    """The chart's lane axis and the checkpoint list name one branch the same way ("branch 1" is lane 1)."""
    drawn = layout_columns([point("a", None, 0), point("b", "a", 1), point("c", "a", 1, head=True)])
    for lang in ("en", "ko"):
        monkeypatch.setattr("dashboard.i18n.current_language", lambda lang=lang: lang)
        text = figure_labels()
        label = labeller(drawn, branched=True)
        for cid, lane in zip(("a", "b", "c"), drawn.lanes, strict=True):
            assert label(cid).split(" · ")[3].split(", ")[0] == lane_label(lane, text)
        names = {label(cid).split(" · ")[3].split(", ")[0] for cid in ("a", "b", "c")}
        assert names == {text["main"], text["branch"].format(n=1)}


def test_the_labeller_reads_the_figures_labels_once_for_every_option(monkeypatch):
    """A branched thread's list labels up to a hundred options a run: its lane names are looked up once."""
    chain = [point("c0", None, 0)] + [point(f"c{i}", f"c{i - 1}" if i % 10 else "c0", i) for i in range(1, 100)]
    drawn = layout_columns(chain)
    reads = []
    real = figure_labels
    monkeypatch.setattr("dashboard.explorer_view.figure_labels", lambda: reads.append(1) or real())
    label = labeller(drawn, branched=True)
    labels = {c.checkpoint_id: label(c.checkpoint_id) for c in chain}

    assert len(reads) == 1
    assert len(set(drawn.lanes)) > 1  # branched: each label names its lane
    assert labels == {
        c.checkpoint_id: option_label(c, lane, True) for c, lane in zip(drawn.points, drawn.lanes, strict=True)
    }


def test_the_search_matches_step_source_id_and_next_nodes():
    assert search_text(point("abc", None, 4, head=True)) == "4 loop abc review"


def test_a_click_is_read_from_the_points_customdata_and_anything_else_is_no_click():
    assert clicked_checkpoint({"selection": {"points": [{"customdata": ["cp-1", 2]}]}}) == "cp-1"
    assert clicked_checkpoint({"selection": {"points": [{"customdata": "cp-2"}]}}) == "cp-2"
    for event in (None, {}, {"selection": {"points": []}}, {"selection": {"points": [{"customdata": [7]}]}}, "x"):
        assert clicked_checkpoint(event) is None


def test_writes_are_shown_as_text_with_their_values_as_json():
    frame = writes_frame((WriteRecord("task-1", "decide", "__interrupt__", {"q": "모두"}),))

    assert frame.to_dict("records") == [
        {"task id": "task-1", "node": "decide", "channel": "__interrupt__", "value": '{"q": "모두"}'}
    ]


def test_the_fork_editor_starts_with_only_the_keys_that_may_be_updated():
    spec = SimpleNamespace(
        edit=SimpleNamespace(state_fields=[SimpleNamespace(name="plan"), SimpleNamespace(name="absent")])
    )

    assert json.loads(editable_values(spec, {"plan": ["a"], "secret": 1})) == {"plan": ["a"]}


@pytest.mark.parametrize("continue_after", [False, True])
def test_a_fork_runs_on_only_when_asked(store, settings, continue_after):
    waiting = runs.start_run(store, settings, "robot", {}, thread_id="bot-1")
    forked = fork_at(
        store,
        settings,
        "bot-1",
        waiting.head_checkpoint_id,
        {"decision": "yes"},
        as_node="approval",
        expected_head=waiting.head_checkpoint_id,
        actor=LOCAL_OPERATOR,
        continue_after=continue_after,
    )

    assert (forked.status, forked.outcome) == (("done", "executed") if continue_after else ("attention", ""))
