"""The explorer names each checkpoint's branch, and shows a draft as a document, collapsed, not as one JSON string."""

from __future__ import annotations

import json

from agents import readmodel, runs
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from dashboard.safe_markdown import DOCUMENT_STYLE, long_texts
from tests.factories import answer_robot

PAGE = "app_pages/explorer.py"


def open_at(app, thread: str):
    """The explorer opened on ``thread`` (its link's ``?thread=``); it drew without an exception."""
    at = app(PAGE)
    at.query_params["thread"] = thread
    at.run()
    assert not at.exception, at.exception
    return at


def test_two_forks_at_one_step_are_told_apart_by_their_branch(app, store, settings):
    answer_robot(store, settings)
    paused = next(c for c in readmodel.checkpoint_chain(store, "hitl_demo") if c.next == ("approval",))
    for decision in ("no", "maybe"):
        head = readmodel.head_checkpoint_id(store, "hitl_demo")
        runs.update_thread(
            store, settings, "hitl_demo", {"decision": decision}, checkpoint_id=paused.checkpoint_id, expected_head=head
        )
    at = open_at(app, "hitl_demo")
    picker = at.selectbox(key="explorer-checkpoint-hitl_demo")
    updates = [label for label in picker.options if " · update · " in label]  # AppTest lists the labels
    assert len(updates) == 2
    assert {label.split(" · ")[3].split(",")[0] for label in updates} == {"branch 1", "branch 2"}  # as the chart


def test_a_lecture_draft_is_a_collapsed_document_not_an_escaped_string(app, store, settings):
    result = runs.start_run(store, settings, "lecture", dict(DEFAULT_LECTURE_INPUT), thread_id="lecture-d1")
    draft = result.values["draft"]
    at = open_at(app, "lecture-d1")
    state = json.loads(at.json[0].value)
    assert "draft" not in state  # no stand-in that reads as the draft's value
    assert state["subtopics"] == readmodel.to_jsonable(result.values["subtopics"])  # the other values as they are
    assert draft.splitlines()[0] not in at.json[0].value
    assert "Long text, not in the view above: `draft`; read it as Markdown below." in [c.value for c in at.caption]
    key = "explorer-doc-draft"
    assert not any(draft.splitlines()[0].lstrip("# ") in m.value for m in at.markdown)  # closed: not sent
    at.session_state[key] = True
    at.run()
    assert any(draft.splitlines()[0].lstrip("# ") in m.value for m in at.markdown)
    # Its tables' long words wrap in its own box, as the lecture page's draft does (a table holds the user's
    # one-line fields: one long word would make the page scroll sideways).
    styles = [element.proto.body for element in at.get("html")]
    assert DOCUMENT_STYLE in styles


def test_only_long_texts_with_lines_are_taken_out():
    shown, documents = long_texts({"a": "x" * 400, "b": "line\n" * 100, "c": 3})
    assert shown == {"a": "x" * 400, "c": 3} and documents == {"b": "line\n" * 100}
