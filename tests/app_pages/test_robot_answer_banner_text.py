"""The robot page's banner says a typed answer as it was typed: escaped once, so Markdown and HTML in it read
as written, never drawn, and no backslash of the escaping shows (it was escaped twice: ``\\<b\\>``, ``\\&``)."""

from __future__ import annotations

import html
import re

import pytest
from markdown_it import MarkdownIt

from agents.texts import verbatim
from tests.factories import pause_robot

PAGE = "app_pages/robot.py"
#: Streamlit draws an alert's body as CommonMark (and GitHub's extensions): the text a reader sees of it.
MARKDOWN = MarkdownIt("commonmark")


def _as_drawn(markdown: str) -> tuple[str, str]:
    """(the HTML ``markdown`` is drawn as, the text a reader sees of it)."""
    drawn = MARKDOWN.render(markdown).strip()
    return drawn, html.unescape(re.sub(r"<[^>]+>", "", drawn))


@pytest.mark.parametrize("typed", ["<b>yes</b> **x** [a](javascript:alert(1)) $x$", "no & later"])
def test_a_typed_answer_is_said_in_the_banner_as_typed(app, store, settings, typed):
    pause_robot(store, settings)
    at = app(PAGE)
    at.text_input(key="robot-free-text").input(typed).run()
    at.button(key="robot-send").click().run()
    assert not at.exception, at.exception
    banner = [w.value for w in at.warning if w.value.startswith("Answered")]
    assert len(banner) == 1, [w.value for w in at.warning]
    drawn, read = _as_drawn(banner[0])
    assert read == f"Answered {verbatim(typed)}: refused.", read
    assert "\\" not in read
    assert not re.search(r"<(b|a|strong|em|code)\b", drawn), drawn  # text, never HTML, a link or emphasis
