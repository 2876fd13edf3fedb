"""AppTest of what a presenter shows on the robot page: the thread on screen, the save file's values."""

from __future__ import annotations

import json

from tests.factories import answer_robot, open_quiz, pause_robot
from tests.shown_markdown import as_read

PAGE = "app_pages/robot.py"


def _open(app, thread: str):
    at = app(PAGE)
    at.query_params["thread"] = thread
    at.run()
    assert not at.exception, at.exception
    return at


def test_the_explanation_names_the_thread_shown(app, store, settings):
    pause_robot(store, settings, "데모-a")
    at = _open(app, "데모-a")
    ids = [as_read(m.value) for m in at.markdown if m.value.startswith("**thread_id**")]
    assert ids and "(here `데모-a`)" in ids[0] and "hitl_demo" not in ids[0]


def test_the_korean_explanation_names_the_thread_shown(app, store, settings):
    answer_robot(store, settings, "demo-b", lang="ko")
    at = app(PAGE)
    at.query_params["thread"] = "demo-b"
    at.session_state["lang"] = "ko"
    at.run()
    ids = [as_read(m.value) for m in at.markdown if m.value.startswith("**thread_id**")]
    assert ids and "(여기서는 `demo-b`)" in ids[0]


def test_each_write_shows_its_value_short_beside_its_channel(app, store, settings):
    answer_robot(store, settings)
    at = app(PAGE)
    writes = next(f.value for f in at.dataframe if "channel" in f.value and "value" in f.value)
    columns = list(writes.columns)
    assert columns.index("value") == columns.index("channel") + 1  # read as `channel = value`
    pairs = list(zip(writes["channel"], writes["value"], strict=True))
    assert ("__resume__", "yes") in pairs and ("decision", "yes") in pairs
    assert ("messages", "human: Start the task") in pairs
    assert all(len(value) <= 60 for channel, value in pairs if channel != "__interrupt__")
    interrupt = next(json.loads(value) for channel, value in pairs if channel == "__interrupt__")
    assert interrupt[0]["value"]["question"] == "Execute this? (yes/no)"  # still JSON, its texts cut short
    assert interrupt[0]["value"]["action"] == "Business trip request: Busan,…"


def test_a_writes_whole_value_opens_on_request(app, store, settings):
    pause_robot(store, settings)
    at = app(PAGE)
    assert "savefile-write-pick-hitl_demo" not in at.session_state  # closed: nothing decoded yet
    at.session_state["savefile-write-value-hitl_demo"] = True  # the presenter opens it
    at.run()
    pick = at.selectbox(key="savefile-write-pick-hitl_demo")
    interrupt = next(i for i, label in enumerate(pick.options) if label.endswith("__interrupt__"))
    pick.set_value(interrupt).run()
    assert not at.exception, at.exception
    assert any("Execute this? (yes/no)" in j.value for j in at.json)


def test_a_value_preview_is_one_short_line():
    from langchain_core.messages import AIMessage, HumanMessage

    from dashboard.savefile import value_preview

    assert value_preview("yes") == "yes"
    assert value_preview([HumanMessage("작업 시작")]) == "human: 작업 시작"
    assert value_preview(AIMessage("Executed: x")) == "ai: Executed: x"
    assert value_preview({"question": "q?", "n": 1}) == '{"question": "q?", "n": 1}'
    assert value_preview(["Busan", "Seoul"]) == '["Busan", "Seoul"]'  # two texts are no message
    assert value_preview({"text": "y" * 100}) == '{"text": "' + "y" * 29 + '…"}'
    long = value_preview("a\nb " + "x" * 100)
    assert long.startswith("a b x") and long.endswith("…") and len(long) == 60


def test_the_quiz_asks_what_the_lessons_have_not_printed(app, store, settings):
    from dashboard.i18n import t
    from dashboard.robot_lessons import QUIZ

    pause_robot(store, settings)
    at = app(PAGE)
    lessons = " ".join(as_read(m.value) for m in at.markdown if ":material/school:" in m.value)
    for question in QUIZ:
        fixed = t(f"robot.a.{question}", "en")
        assert t(f"robot.q.{question}", "en") not in lessons and fixed not in lessons
        open_quiz(at, question)
        assert any(as_read(i.value).startswith(fixed) for i in at.info)  # given away once opened, not before
