"""AppTest of the robot page's teaching: answers beside the live data, the quiz, outcome and short ids."""

from __future__ import annotations

import unicodedata

import pytest

from agents import readmodel
from agents.errors import short_id
from agents.readsql import NULL_TASK_ID
from agents.robot.graph import build_graph
from dashboard.formats import NO_BREAK_SPACE
from dashboard.safe_markdown import escape_markdown
from tests.factories import answer_robot, open_quiz, pause_robot
from tests.shown_markdown import as_read

PAGE = "app_pages/robot.py"
STRING_ACTION = "Business trip request: Busan, 2 days, budget 800,000 KRW"


def _lesson(at, question):
    """The text of the lesson shown beside the data for ``question`` (its bordered block)."""
    texts = [as_read(m.value) for m in at.markdown if question in m.value and ":material/school:" in m.value]
    assert len(texts) == 1, [m.value for m in at.markdown]
    return texts[0]


def _chain(store):
    return readmodel.checkpoint_chain(store, "hitl_demo")


def test_each_question_is_answered_beside_the_data_with_the_live_values(app, store, settings):
    pause_robot(store, settings)
    at = app(PAGE)
    assert not at.exception
    chain = _chain(store)
    head = readmodel.head_checkpoint_id(store, "hitl_demo")
    paused = next(entry for entry in chain if entry.next == ("approval",))
    assert "`approval`" in _lesson(at, "Where does the robot stop?")
    assert "`interrupt()`" in _lesson(at, "Where does the robot stop?")
    assert "it waits there" in _lesson(at, "Where does the robot stop?")
    assert "This thread took 3 so far (steps -1 to 1)" in _lesson(at, "Is a checkpoint taken only at the pause?")
    ids = _lesson(at, "Which id do we choose ourselves")
    assert "`thread_id` `hitl_demo`, chosen by us" in ids and f"`{short_id(head)}`, made by LangGraph" in ids
    latest = _lesson(at, "How is the latest checkpoint found?")
    assert "newest first" in latest and f"`{short_id(head)}`" in latest and "step 1" in latest
    assert head in [x.value for x in at.text]  # the full id, to select and copy
    pause = _lesson(at, "how is the pause remembered?")
    assert f"1 `__interrupt__` write under `{short_id(paused.checkpoint_id)}` (step 1)" in pause
    assert "no answer was given yet" in _lesson(at, 'Does "Yes" approve?')


def test_the_live_count_follows_the_thread(app, store, settings):
    answer_robot(store, settings, answer="yes")
    at = app(PAGE)
    assert "This thread took 5 so far (steps -1 to 3)" in _lesson(at, "Is a checkpoint taken only at the pause?")
    assert "it is past the pause" in _lesson(at, "Where does the robot stop?")
    assert "the answer was `'yes'`: executed" in _lesson(at, 'Does "Yes" approve?')


def test_the_latest_id_is_broken_into_its_parts(app, store, settings):
    answer_robot(store, settings)
    at = app(PAGE)
    head = readmodel.head_checkpoint_id(store, "hitl_demo")
    assert head is not None
    groups = head.split("-")
    table = next(as_read(m.value) for m in at.markdown if "| part |" in m.value)
    assert f"`{'-'.join(groups[:3])}`" in table
    assert f"| `{groups[3]}` | the step, 3:" in table and groups[3] == "8003"
    assert f"`{groups[4]}`" in table and f"`{short_id(head)}`" in table


def test_quiz_answers_are_hidden_until_their_question_is_opened(app, store, settings):
    pause_robot(store, settings)
    at = app(PAGE)
    assert not any(i.value.startswith("Five: the three of the pause") for i in at.info)
    labels = [box.label for box in at.expander]
    assert "1. You answer now. How many checkpoints will the thread hold when the run ends?" in labels
    open_quiz(at, "after_answer")
    shown = [i.value for i in at.info]
    assert any(v.startswith("Five: the three of the pause") and v.endswith("Now it holds 3.") for v in shown)
    assert not any(v.startswith("Nowhere:") for v in shown)  # only the opened question's answer
    open_quiz(at, "no_saver")
    assert any(i.value.startswith("Nowhere: with no save file") for i in at.info)
    open_quiz(at, "after_answer", opened=False)  # closed again: its answer is made no more
    assert not any(i.value.startswith("Five:") for i in at.info)
    assert any(i.value.startswith("Nowhere:") for i in at.info)


def test_an_open_question_stays_open_when_its_value_comes_twice(app, store, settings):
    # The browser can hand one action to two runs; an expander's value, sent twice, opens it once.
    pause_robot(store, settings)
    at = app(PAGE)
    open_quiz(at, "resume_under")
    open_quiz(at, "resume_under")
    assert sum(i.value.startswith("Under the paused one") for i in at.info) == 1


def test_the_quiz_speaks_korean(app, store, settings):
    pause_robot(store, settings)
    at = app(PAGE)
    at.selectbox(key="lang").select("ko").run()
    question = "3. 처음부터 다시를 누르면, 어떤 ID가 그대로이고 어떤 ID가 새로 생길까요?"
    assert question in [box.label for box in at.expander]
    assert not any("그대로." in i.value for i in at.info)
    open_quiz(at, "start_over")
    assert any(i.value.endswith("여기서는: `hitl_demo` 그대로.") for i in at.info)


def test_a_refusal_is_a_warning_never_a_success(app, store, settings):
    pause_robot(store, settings)
    at = app(PAGE)
    at.text_input(key="robot-free-text").input("Yes").run()
    at.button(key="robot-send").click().run()
    assert not at.exception
    assert not at.success, [s.value for s in at.success]
    warnings = [w.value for w in at.warning]
    assert "Answered 'Yes': refused." in warnings
    assert any(w.startswith("Refused: the answer 'Yes' is not exactly `yes`") for w in warnings)


def test_an_executed_answer_is_a_success(app, store, settings):
    pause_robot(store, settings)
    at = app(PAGE)
    at.button(key="robot-yes").click().run()
    assert "Answered 'yes': executed." in [s.value for s in at.success]
    assert not any(w.value.startswith("Refused") for w in at.warning)


@pytest.mark.parametrize(("answer", "outcome"), [("yes", "executed"), ("no", "refused"), ("Yes", "refused")])
def test_the_outcome_is_shown_apart_from_the_status(app, store, settings, answer, outcome):
    answer_robot(store, settings, answer=answer)
    at = app(PAGE)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Status"] == "done" and metrics["Outcome"] == outcome
    assert any('`done` is not "approved"' in c.value for c in at.caption)


def test_both_tables_name_checkpoints_by_the_same_short_id_beside_the_full_id(app, store, settings):
    answer_robot(store, settings, answer="Yes")
    at = app(PAGE)
    checkpoints, writes = at.dataframe[0].value, at.dataframe[1].value
    chain = _chain(store)
    assert list(checkpoints["checkpoint (short)"]) == [short_id(e.checkpoint_id) for e in chain]
    assert list(checkpoints["full checkpoint_id"]) == [e.checkpoint_id for e in chain]
    assert list(checkpoints["parent (short)"])[1:] == [short_id(e.checkpoint_id) for e in chain[:-1]]
    for short, full in zip(writes["checkpoint (short)"], writes["full checkpoint_id"], strict=True):
        assert short == short_id(full) and len(short) == 8 and full.endswith(full.rsplit("-", 1)[-1])
    assert set(writes["checkpoint (short)"]) <= set(checkpoints["checkpoint (short)"])


def test_the_two_resume_rows_are_told_apart(app, store, settings):
    answer_robot(store, settings, answer="Yes")
    at = app(PAGE)
    writes = at.dataframe[1].value
    resumes = writes[writes["channel"] == "__resume__"]
    assert list(resumes["task id"]) == [NULL_TASK_ID, resumes["task id"].iloc[1]]
    assert list(resumes["node"]) == ["(outside a node)", "approval"]
    assert list(resumes["what it is"]) == [
        "the answer, written outside any node",
        "the answer interrupt() returned in this task",
    ]
    listed = [as_read(m.value) for m in at.markdown if m.value.startswith("- under ")]
    assert any(f"task `{NULL_TASK_ID}` (outside a node): `'Yes'`" in x for x in listed)
    assert any("(node `approval`): `['Yes']`" in x for x in listed)
    assert any("Why two `__resume__` rows?" in m.value for m in at.markdown)


def test_a_text_pending_action_is_shown_as_it_is(app, store, settings, monkeypatch):
    def propose(state):
        return {"pending_action": STRING_ACTION}

    monkeypatch.setattr("agents.robot.graph.propose", propose)
    pause_robot(store, settings)
    at = app(PAGE)
    assert not at.exception
    shown = f"**Proposed action:** {escape_markdown(STRING_ACTION.replace(' KRW', NO_BREAK_SPACE + 'KRW'))}"
    assert shown in [x.value for x in at.markdown]  # as text, its amount kept with its unit
    assert not at.json or all(STRING_ACTION != j.value for j in at.json)


def test_markdown_in_a_text_action_is_shown_as_text(app, store, settings, monkeypatch):
    def propose(state):
        return {"pending_action": "[pay](http://example.com) **now**"}

    monkeypatch.setattr("agents.robot.graph.propose", propose)
    pause_robot(store, settings)
    at = app(PAGE)
    shown = r"**Proposed action:** \[pay\](http:\u2060//example.com) \*\*now\*\*".replace(r"\u2060", "\u2060")
    assert shown in [x.value for x in at.markdown]  # no link, no emphasis: the text as written


def test_an_action_object_saved_before_is_shown_as_json(app, store, settings, monkeypatch):
    def propose(state):  # the robot saved its action as an object before it wrote a text
        return {"pending_action": {"type": "business_trip_request", "destination": "Busan", "days": 2}}

    monkeypatch.setattr("agents.robot.graph.propose", propose)
    pause_robot(store, settings)
    at = app(PAGE)
    assert any('"destination"' in j.value for j in at.json)


def test_a_refusal_through_the_sidebar_resume_form_is_a_warning(app, store, settings):
    pause_robot(store, settings)
    at = app(PAGE)
    at.sidebar.text_input(key="resume-answer-hitl_demo").input("Yes")
    next(b for b in at.sidebar.button if b.label == "Resume").click().run()
    assert not at.exception
    assert not at.success, [s.value for s in at.success]
    assert any(w.value.startswith("Resumed thread hitl_demo: done") for w in at.warning)


@pytest.mark.parametrize(("metadata", "shown"), [({}, "records no agent"), ({"agent": "refund"}, "the refund agent")])
def test_a_thread_that_is_no_robots_is_named_and_not_drawn(app, store, settings, metadata, shown):
    """A thread LangGraph's tooling path wrote with no agent recorded is as much no robot's as a refund."""
    config = {"configurable": {"thread_id": "dev-1"}, "metadata": metadata}
    build_graph(store.saver, store=store).invoke({"messages": [("human", "go")]}, config)
    at = app(PAGE)
    at.query_params["thread"] = "dev-1"
    at.run()
    assert not at.exception, at.exception
    assert [shown in error.value for error in at.error] == [True]
    assert "robot-send" not in {button.key for button in at.button}


def test_a_thread_saved_under_a_decomposed_id_is_shown_refused_and_deleted_alone(app, store, settings):
    """``cafe\\u0301-1``, saved by other software, reads as ``café-1`` when normalised: the page shows it, not
    its look-alike, as needing attention with the reason; starting it over is refused; its delete
    (confirmed as a keyboard types it) deletes it alone."""
    decomposed, composed = (unicodedata.normalize(form, "café-1") for form in ("NFD", "NFC"))
    pause_robot(store, settings, composed)
    build_graph(store.saver, store=store).invoke(
        {"messages": [("human", "go")]}, {"configurable": {"thread_id": decomposed}, "metadata": {"agent": "robot"}}
    )
    heads = {thread: readmodel.head_checkpoint_id(store, thread) for thread in (decomposed, composed)}
    at = app(PAGE)
    at.query_params["thread"] = decomposed
    at.run()
    assert not at.exception, at.exception
    shown = [x.value for x in at.text]
    assert heads[decomposed] in shown and heads[composed] not in shown
    assert [m.value for m in at.metric][0] == "needs attention"  # no answer offered on the page
    assert any("other software saved it" in error.value for error in at.error)
    assert "robot-send" not in {button.key for button in at.button}
    next(b for b in at.button if b.label == "Start over").click().run()
    next(b for b in at.button if b.label == "Delete and start over").click().run()
    assert any("other software" in e.value and "nothing was changed" in e.value for e in at.main.error)
    at.sidebar.text_input(key=f"resume-answer-{decomposed}").input("yes")
    next(b for b in at.sidebar.button if b.label == "Resume").click().run()
    assert any("other software" in e.value and "nothing was changed" in e.value for e in at.sidebar.error)
    assert {thread: readmodel.head_checkpoint_id(store, thread) for thread in heads} == heads

    at.sidebar.text_input(key=f"delete-confirm-{decomposed}").input(composed)
    next(b for b in at.sidebar.button if b.label == "Delete thread").click().run()
    assert readmodel.head_checkpoint_id(store, decomposed) is None
    assert readmodel.head_checkpoint_id(store, composed) == heads[composed]
