"""Reading the lecture's free text: list items, the audience level, whole-word mentions."""

from __future__ import annotations

import re

_BEGINNER = re.compile(r"초급|입문|초보|비개발자|처음|beginner|novice|introductory|\bintro\b|non-technical|basic", re.I)
_ADVANCED = re.compile(r"고급|심화|전문가|숙련|advanced|expert|senior", re.I)
#: What starts Markdown's inline syntax (emphasis, code, links, images, HTML, math, tables, entities, strikethrough).
_INLINE_MARKS = re.compile(r"([\\`*_\[\]<>~$&|])")
#: What makes a line a heading, quote, list item, rule or setext underline when it starts one.
_BLOCK_MARK = re.compile(r"^([#>+=-]|\d{1,9}[.)])")
#: A backslash escape of an ASCII punctuation character, as CommonMark reads one.
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")


def markdown_text(text: str) -> str:
    """Text the user typed (a field, a subtopic title, a note), or text quoting it, for the Markdown draft: it shows
    as typed, on one line (``**AI**`` stays two asterisks, ``<b>`` and ``$x$`` stay literal), while the draft's own
    headings, tables and emphasis around it stay Markdown. Read back as typed by :func:`plain_text`."""
    line = re.sub(r"\s*\n\s*", " ", str(text))
    return _BLOCK_MARK.sub(lambda mark: mark.group()[:-1] + "\\" + mark.group()[-1], _INLINE_MARKS.sub(r"\\\1", line))


def plain_text(markdown: str) -> str:
    """``markdown`` with its backslash escapes resolved: the draft's text as a reader sees it (see
    :func:`markdown_text`), for the checks that look for the user's words in it."""
    return _ESCAPED.sub(r"\1", markdown)


def split_items(text: str) -> list[str]:
    """Splits a list written as free text ("ChatGPT, Notion", "A 및 B") into items."""
    parts = re.split(r"[,，、;/\n]|\s+(?:and|및|그리고)\s+", text)
    return [part.strip() for part in parts if part.strip()]


def split_tools(text: str) -> list[str]:
    """Splits the platform / tools field into tools at its commas (``,``, and the CJK ``，`` ``、``), the one
    separator its help names: a slash or "and" belongs to a name ("CI/CD", "</i>", "Docs and Sheets")."""
    return [part.strip() for part in re.split(r"[,，、]", text) if part.strip()]


def audience_level(audience: str) -> str:
    """Classifies an audience description as beginner, intermediate or advanced.

    Beginner words are checked first: "비개발자" contains "개발자" and is a
    beginner audience, not an expert one.
    """
    if _BEGINNER.search(audience):
        return "beginner"
    if _ADVANCED.search(audience):
        return "advanced"
    return "intermediate"


def mentions(haystack: str, needle: str) -> bool:
    """Case-insensitive containment; ASCII words must stand alone (plural allowed)."""
    if re.fullmatch(r"[A-Za-z][A-Za-z -]*", needle):
        pattern = r"(?<![A-Za-z])" + re.escape(needle) + r"s?(?![A-Za-z])"
        return re.search(pattern, haystack, re.I) is not None
    return needle.casefold() in haystack.casefold()
