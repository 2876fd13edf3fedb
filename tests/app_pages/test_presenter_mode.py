"""AppTest of presenter mode (``?present=1``): kept in the URL, explanations folded, the graph's step
highlighted, the save file's new rows marked after an action."""

from __future__ import annotations

import pytest

from agents.robot.strings import STRINGS
from dashboard import presenter, robot_view
from dashboard.safe_markdown import INLINE_CODE_STYLE
from dashboard.tables import MARK_COLUMN
from tests.factories import open_quiz, pause_robot

PAGE = "app_pages/robot.py"
LESSON = "Where does the robot stop?"


def _robot(app, present: bool):
    at = app(PAGE)
    if present:
        at.query_params["present"] = "1"
        at.run()
    assert not at.exception, at.exception
    return at


def _in_url(at):
    value = at.query_params.get("present")
    return value[-1] if isinstance(value, list) else value


def _writes(at):
    return next(f.value for f in at.dataframe if "channel" in f.value)


def test_the_toggle_comes_from_the_url_and_stays_in_it_until_turned_off(app, store, settings):
    pause_robot(store, settings)
    at = _robot(app, present=True)
    assert at.toggle(key="present").value is True
    assert _in_url(at) == "1"
    at.toggle(key="present").set_value(False).run()
    assert _in_url(at) is None
    at.toggle(key="present").set_value(True).run()
    assert _in_url(at) == "1"


def test_a_page_change_keeps_presenter_mode_though_the_navigations_link_has_no_query(app, store, settings):
    pause_robot(store, settings)
    at = _robot(app, present=True)
    at.query_params.clear()  # a sidebar link: the next page's URL carries no ?present=
    at.run()
    assert at.toggle(key="present").value is True and _in_url(at) == "1"
    at.query_params["present"] = "0"  # a link that says otherwise still turns it off
    at.run()
    assert at.toggle(key="present").value is False and _in_url(at) is None


def test_the_larger_type_is_a_constant_style_added_only_in_presenter_mode(app, store, settings):
    pause_robot(store, settings)
    styles = [node for node in _robot(app, present=True)._tree if getattr(node, "type", "") == "html"]
    plain = [node for node in _robot(app, present=False)._tree if getattr(node, "type", "") == "html"]
    code = [INLINE_CODE_STYLE]  # every page's, in both modes
    outcome = [robot_view.OUTCOME_STYLE]  # the status and outcome's row, in both modes
    assert [node.proto.body for node in styles] == [*code, presenter.STYLE, *outcome]
    assert [node.proto.body for node in plain] == [*code, *outcome]


def test_the_robots_explanations_are_folded_for_a_presenter(app, store, settings):
    pause_robot(store, settings)
    folded = _robot(app, present=True)
    labels = [box.label for box in folded.expander]
    assert any(LESSON in label for label in labels)
    assert any("What am I looking at?" in label for label in labels)
    assert not any(LESSON in m.value and "`interrupt()`" in m.value for m in folded.markdown)  # the question alone
    plain = _robot(app, present=False)
    assert not any(LESSON in box.label for box in plain.expander)
    assert any(LESSON in m.value and "`interrupt()`" in m.value for m in plain.markdown)


def test_the_quiz_answers_stay_hidden_until_opened(app, store, settings):
    pause_robot(store, settings)
    at = _robot(app, present=True)
    answer = STRINGS["robot.a.start_over"][0][:40]
    assert not any(answer in box.value for box in at.info)
    open_quiz(at, "start_over")
    assert any(answer in box.value for box in at.info)


def test_the_graphs_current_step_is_highlighted_as_the_run_moves(app, store, settings):
    pause_robot(store, settings)
    at = _robot(app, present=True)
    steps = next(m.value for m in at.markdown if m.value.startswith("**Graph:**"))
    assert ":green-badge[✓ propose]" in steps and ":orange-badge[▶ approval]" in steps
    assert ":gray-badge[execute]" in steps
    at.button(key="robot-yes").click().run()
    steps = next(m.value for m in at.markdown if m.value.startswith("**Graph:**"))
    assert "orange-badge" not in steps and ":green-badge[✓ execute]" in steps and "■ end" in steps
    assert not any(m.value.startswith("**Graph:**") for m in _robot(app, present=False).markdown)


def test_the_save_files_new_rows_are_marked_after_an_action(app, store, settings):
    pause_robot(store, settings)
    at = _robot(app, present=True)
    assert MARK_COLUMN not in _writes(at).columns  # the first view marks nothing
    before = len(_writes(at))
    at.button(key="robot-yes").click().run()
    writes = _writes(at)
    marked = writes[writes[MARK_COLUMN] == "● new"]
    assert len(writes) > before and len(marked) == len(writes) - before
    assert "__resume__" in set(marked["channel"]) and "__interrupt__" not in set(marked["channel"])
    assert any("new rows since the last action" in c.value for c in at.caption)
    at.run()  # a rerun that adds nothing keeps the marks
    assert (_writes(at)[MARK_COLUMN] == "● new").sum() == len(marked)


def test_the_korean_save_file_card_titles_keep_their_last_syllable_with_the_word_before(app, store, settings):
    pause_robot(store, settings, lang="ko")
    at = app(PAGE)
    at.query_params.update({"present": "1", "lang": "ko"})
    at.run()
    assert not at.exception, at.exception
    titles = [m.value for m in at.markdown if m.value.startswith("**저장 파일")]
    # A no-break space: at 1280 pixels the title breaks before "마지막", never leaving "행" alone on a line.
    assert titles == ["**저장 파일의 마지막\u00a0행**"]
    at.button(key="robot-yes").click().run()
    assert [m.value for m in at.markdown if m.value.startswith("**저장 파일")] == ["**저장 파일에 새로 생긴\u00a0행**"]


@pytest.mark.parametrize(
    ("next_nodes", "status", "expected"),
    [
        ((), "new", ["later", "later", "later"]),
        (("approval",), "waiting", ["done", "current", "later"]),
        (("execute",), "running", ["done", "done", "current"]),
        ((), "done", ["done", "done", "done"]),
    ],
)
def test_step_states_follow_the_heads_next(next_nodes, status, expected):
    states = presenter.step_states(("propose", "approval", "execute"), next_nodes, status)
    assert [state for _node, state in states] == expected


def test_new_keys_mark_what_an_action_added_until_the_next_one():
    state: dict[str, object] = {}
    assert presenter.new_keys("t", ["a", "b"], state) == frozenset()  # the first draw marks nothing
    assert presenter.new_keys("t", ["a", "b", "c"], state) == {"c"}
    assert presenter.new_keys("t", ["a", "b", "c"], state) == {"c"}  # a rerun keeps the mark
    assert presenter.new_keys("t", ["a", "b", "c", "d", "e"], state) == {"d", "e"}
