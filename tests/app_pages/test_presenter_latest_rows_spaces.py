"""AppTest of the presenter's "Last rows of the save file" box: a typed answer's spaces read as the outcome
says them (``'yes␣'``), so a refused ``yes `` never reads as ``yes`` there."""

from __future__ import annotations

from dashboard import robot_view
from tests.factories import pause_robot

PAGE = "app_pages/robot.py"


def _presenting(app):
    at = app(PAGE)
    at.query_params["present"] = "1"
    at.run()
    assert not at.exception, at.exception
    return at


def _box_lines(at) -> list[str]:
    """The box's rows (``node · channel = value``, each a caption of code spans)."""
    return [c.value for c in at.caption if " · " in c.value and " = " in c.value]


def test_a_typed_answer_with_a_trailing_space_shows_it_in_the_presenters_box(app, store, settings):
    pause_robot(store, settings)
    at = _presenting(app)
    at.text_input(key="robot-free-text").input("yes ")
    at.button(key="robot-send").click().run()
    assert not at.exception, at.exception
    assert any("'yes␣'" in w.value for w in at.warning)  # the outcome: refused 'yes␣'
    lines = _box_lines(at)
    assert "`approval` · `decision` = `'yes␣'`" in lines, lines
    assert '`approval` · `__resume__` = `["yes␣"]`' in lines, lines  # the answer as the graph received it
    assert not any(line.endswith("= `yes`") or line.endswith('= `["yes"]`') for line in lines), lines


def test_an_exact_yes_and_ordinary_texts_read_as_the_save_files_table_shows_them(app, store, settings):
    pause_robot(store, settings)
    at = _presenting(app)
    at.button(key="robot-yes").click().run()
    assert "`approval` · `decision` = `yes`" in _box_lines(at)
    assert robot_view.latest_value("Business trip request: Busan") == "Business trip request: …"  # cut, no quotes


def test_a_value_whose_spaces_a_preview_would_hide_is_quoted_with_them_visible():
    assert robot_view.latest_value(" yes") == "'␣yes'"
    assert robot_view.latest_value("yes  no") == "'yes␣␣no'"
    assert robot_view.latest_value("yes\n") == "'yes\\n'"
    assert robot_view.latest_value("yes␣") == "'yes\\u2423'"  # a typed open box never reads as a space
    assert robot_view.latest_value(" yes" + "x" * 40) == "'␣yes" + "x" * 18 + "…"  # cut to the box's 24 characters
    assert robot_view.latest_value("yes " + "x" * 40) == "yes " + "x" * 19 + "…"  # one space between words: seen
    assert robot_view.latest_value({"a": 1}) == '{"a": 1}'
    assert robot_view.latest_value({"answer": [" no"]}) == '{"answer": ["␣no"]}'
