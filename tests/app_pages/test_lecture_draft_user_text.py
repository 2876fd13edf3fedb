"""The user's fields are text in the lecture draft: a topic typed as ``**AI**`` shows its asterisks, in the title and
in the overview table, while the draft's own headings, tables and emphasis stay Markdown."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from agents import runs
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from agents.lecture.model.words import markdown_text, plain_text
from tests.conftest import APP_FILE

PAGE = "app_pages/lecture.py"
TOPIC = "**AI** <b>basics</b> $x$"


def _draft(at: AppTest) -> str:
    drawn = [m.value for m in at.main.markdown if m.value.startswith("# ")]
    assert len(drawn) == 1, [m.value[:40] for m in at.main.markdown]
    return drawn[0]


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_topic_in_asterisks_shows_its_asterisks_in_the_draft(store, settings, lang):
    fields = {**DEFAULT_LECTURE_INPUT, "topic": TOPIC}
    waiting = runs.start_run(store, settings, "lecture", fields, thread_id="lecture-stars", lang=lang)
    assert waiting.values["draft"]
    at = AppTest.from_file(APP_FILE, default_timeout=60)
    at.query_params["lang"] = lang
    at.query_params["thread"] = "lecture-stars"
    at.run()
    at.switch_page(PAGE)
    at.run()
    assert not at.exception, at.exception
    draft = _draft(at)
    title = draft.splitlines()[0]
    assert title.startswith("# ") and "\\*\\*AI\\*\\*" in title  # the title: two asterisks, not bold
    table_row = next(line for line in draft.splitlines() if line.startswith("|") and "AI" in line)
    assert "\\*\\*AI\\*\\*" in table_row  # the overview table's topic cell
    assert "**AI**" not in draft  # nowhere drawn as bold
    assert "\\<b\\>basics\\<" in title and "\\$x\\$" in title  # HTML and math stay literal, as before
    assert "\n## " in draft and "| --- |" in draft  # the model's own headings and tables stay Markdown


def test_user_text_reads_back_as_typed():
    for typed in ("**AI**", "- a list?", "1. first", "a_b [x](y) <i> `c` ~d~ $e$ & f | g", "C:\\path"):
        written = markdown_text(typed)
        assert plain_text(written) == typed
        assert "**" not in written and "\n" not in markdown_text(typed + "\nmore")
