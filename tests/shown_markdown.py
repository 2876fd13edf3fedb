"""Markdown as a reader sees it: without the plain spans that keep a code span with its punctuation."""

from __future__ import annotations

import re

#: ``dashboard.safe_markdown.code_with_its_punctuation``'s span: a code span and its glued text, no brackets.
_GLUED = re.compile(r':color\[([^\[\]]*)\]\{foreground="inherit"\}')


def as_read(markdown: str) -> str:
    """``markdown`` with each glued span's text in its place (what the page reads as)."""
    return _GLUED.sub(r"\1", markdown)
