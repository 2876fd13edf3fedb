"""A code span and the text glued to it are put in one plain span, which the page's style keeps on one line."""

from __future__ import annotations

import pytest

from dashboard.safe_markdown import INLINE_CODE_STYLE, code_with_its_punctuation, escape_markdown
from tests.shown_markdown import as_read

GLUE = '{foreground="inherit"}'


@pytest.mark.parametrize(
    ("markdown", "glued"),
    [
        ("`thread_id` or `checkpoint_id`?", f"`thread_id` or :color[`checkpoint_id`?]{GLUE}"),
        ("**Which `checkpoint_id`?** The", f"**Which :color[`checkpoint_id`?]{GLUE}** The"),
        (
            "(here `?thread=`, default `hitl_demo`) and",
            f"(here :color[`?thread=`,]{GLUE} default :color[`hitl_demo`)]{GLUE} and",
        ),
        ("the value (`Command(resume=…)`); and", f"the value :color[(`Command(resume=…)`);]{GLUE} and"),
        ("`thread_id`입니다. 우리가", f":color[`thread_id`입니다.]{GLUE} 우리가"),
    ],
)
def test_a_code_span_and_its_punctuation_are_one_span(markdown: str, glued: str):
    assert code_with_its_punctuation(markdown) == glued
    assert as_read(glued) == markdown  # the reader sees the same text


@pytest.mark.parametrize(
    "markdown",
    ["a `code` span alone", "| a | `v` | b |", r"an escaped \`tick\`, kept", "`['yes']`, a bracket inside", "**`x`**"],
)
def test_a_span_with_nothing_glued_to_it_and_other_text_stay_as_they_are(markdown: str):
    assert code_with_its_punctuation(markdown) == markdown


@pytest.mark.parametrize("typed", [":smile: x", "-> x"])
def test_escaped_text_right_after_a_code_span_keeps_its_plain_span_whole(typed: str):
    """Escaped text can open with a plain span (``:color[\\:]{…}``): gluing its ``:color`` to the code span before it
    would leave the span's brackets as text."""
    markdown = f"`yes`{escape_markdown(typed)}"
    assert code_with_its_punctuation(markdown) == markdown


def test_the_page_style_keeps_the_plain_span_on_one_line_and_lets_its_code_wrap_inside():
    assert "span:not([class]):has(> code) { white-space: nowrap; }" in INLINE_CODE_STYLE
    assert "span:not([class]):has(> code) > code { white-space: normal; }" in INLINE_CODE_STYLE
