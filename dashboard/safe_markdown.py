"""User and model text as Markdown that renders as text: nothing in it can fetch, follow or run anything.

:func:`escape_markdown` shows any text literally; :func:`inert_markdown` keeps a Markdown text's
formatting (a lecture plan) but turns images, links and HTML into plain text. Apart from
:mod:`dashboard.views` so that the lowest drawing helpers (``dashboard.tables``) can use them too.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from typing import Any

import streamlit as st
from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode

_PARSER = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
_PUNCTUATION = frozenset(string.punctuation)
_BACKTICKS = re.compile(r"`+")
_ALWAYS_ESCAPED = frozenset("\\`*[]<>~|$&@")
#: Streamlit's Markdown (remark-gfm) links bare ``http://``/``www.`` text and e-mail addresses in text
#: nodes after escapes are resolved, so a backslash cannot stop it; an invisible word joiner can.
_WORD_JOINER = "\u2060"
_AUTOLINK_START = re.compile(r"(?i)(?<=https:)(?=//\S)|(?<=http:)(?=//\S)|(?<=www)(?=\.)|(?<=@)(?!\u2060)")
_LINE_START = re.compile(r"[#>+=-]|[0-9]{1,9}[.)]")
#: Streamlit's Markdown rewrites some text after escapes are resolved, so a backslash cannot keep it as typed:
#: a shortcode (``:smile:``, ``:+1:``, ``:streamlit:``) becomes an emoji or a logo, ``:material/home:`` an
#: icon (its ``:material/`` is rewritten in the source before parsing, escaped or not), and a sign standing
#: alone between spaces (``->``, ``<-``, ``<->``, ``--``, ``>=``, ``<=``, ``~=``) an arrow or a dash. Each
#: rewrite matches within one text node; so the colon that opens such a shortcode, and the next-to-last
#: character of such a sign, is put in a plain span (:func:`_plain`): the sequence is never whole in one
#: text node, and what a reader sees, and copies, is the text as typed.
_SHORTCODE_START = re.compile(r":(?=[\w+-][\w+/-]*:|material/)", re.ASCII)
_SIGN = re.compile(r"(?:(?<=\s)|^)(?:<->|->|<-|--|>=|<=|~=)(?=\s|$|:(?:[\w+-][\w+/-]*:|material/))", re.ASCII)
#: A word (no space in it) of more characters than this in a table cell may break anywhere (:func:`document_style`):
#: one long word (a pasted path, a Korean phrase without spaces) would hold its column, and the page, wider.
LONG_WORD = 20
_LONG_WORD = re.compile(rf"\S{{{LONG_WORD + 1},}}")
#: A colon that would open a directive (Streamlit's ``:red[text]``, ``:small``; a name starts with a letter),
#: or a colon before one: escaped, so the name after it stays text.
_DIRECTIVE_START = re.compile(r":(?=[A-Za-z:])")
_ALIGN = {"text-align:left": ":---", "text-align:right": "---:", "text-align:center": ":---:"}


#: Inline code (an id, ``?thread=``, ``demo-a``) in the main area is one unit on its line: never broken at its
#: punctuation ("?" / "thread=", "demo-" / "a"), which a browser allows inside text. As an inline block it moves
#: whole to the next line when it does not fit the rest of one; only a code span wider than its column wraps,
#: inside itself (anywhere, as a 32-hex id must), so it never overflows a narrow column. Code blocks (``pre``)
#: keep their own layout. Chromium may still break between an inline block and the punctuation after it
#: ("`checkpoint_id`" / "? The"): a code span and what is glued to it are put in one plain ``<span>`` by
#: :func:`code_with_its_punctuation`, which does not wrap (the code inside it still wraps within itself).
INLINE_CODE_STYLE = (
    '<style>[data-testid="stMain"] :not(pre) > code { display: inline-block; max-width: 100%;'
    " box-sizing: border-box; vertical-align: baseline; overflow-wrap: anywhere; }"
    ' [data-testid="stMain"] span:not([class]):has(> code) { white-space: nowrap; }'
    ' [data-testid="stMain"] span:not([class]):has(> code) > code { white-space: normal; }</style>'
)

#: An inline code span of one backtick on each side, not escaped.
_CODE_SPAN = re.compile(r"(?<![`\\])`[^`\n]+`(?!`)")
#: What sits against a code span's opening backtick (an opening bracket or quote) and after its closing
#: one (punctuation, a Korean particle): anything but a space, Markdown's marks, a directive's brackets and
#: a directive's opening (the plain span of :func:`_plain`).
_GLUED_BEFORE = re.compile(r"[(\"'\u201c\u2018\u300c\u300e]+$")
_GLUED_AFTER = re.compile(r"(?:(?!:[A-Za-z])[^\s`*_\[\]{}\\<>|])+")


def code_with_its_punctuation(markdown: str) -> str:
    """``markdown`` with every code span that has text glued to it ("`checkpoint_id`?", "(`yes`)",
    "`thread_id`입니다") put, with that text, in one plain span (``:color[…]{foreground="inherit"}``, which
    Streamlit draws as a ``<span>`` without a class or a colour) that :data:`INLINE_CODE_STYLE` keeps on one
    line: the punctuation never starts the next line alone. Code spans with a space on both sides, and
    everything else, are left as they are.
    """
    out: list[str] = []
    position = 0
    for found in _CODE_SPAN.finditer(markdown):
        if found.start() < position or "[" in found.group() or "]" in found.group():
            continue  # its opening was taken as glued to the span before it; a bracket would end the span early
        before = markdown[position : found.start()]
        lead = _GLUED_BEFORE.search(before)
        at_word_start = lead is not None and (before[: lead.start()] or " " * (position == 0))[-1:].isspace()
        lead_text = lead.group() if lead is not None and at_word_start else ""
        trail = _GLUED_AFTER.match(markdown, found.end())
        trail_text = trail.group() if trail else ""
        if not lead_text and not trail_text:
            out.append(markdown[position : found.end()])
            position = found.end()
            continue
        out.append(before[: len(before) - len(lead_text)])
        out.append(f':color[{lead_text}{found.group()}{trail_text}]{{foreground="inherit"}}')
        position = found.end() + len(trail_text)
    out.append(markdown[position:])
    return "".join(out)


def inline_code_style() -> None:
    """Draws :data:`INLINE_CODE_STYLE` (a style of ours only; it takes no room where it is drawn)."""
    st.html(INLINE_CODE_STYLE)


def inert_markdown(text: str) -> str:
    """User or model Markdown made safe to render: formatting kept, nothing a browser would fetch or follow.

    The text is parsed with markdown-it-py (CommonMark, tables, strikethrough) and written back
    as Markdown in which every character of text is escaped. Headings, lists, quotes, tables,
    emphasis and code still render; images (inline, nested-bracket or by reference), links,
    autolinks and raw HTML become plain text (``[image: alt]``, ``text (url)``), so no URL in
    the text can make a viewer's browser fetch anything; no shortcode becomes an emoji or an icon
    (:data:`_SHORTCODE_START`). A table cell's long word is a span of its own (:func:`document_style`). The
    result passed through again shows the same text.
    """
    return _blocks(SyntaxTreeNode(_PARSER.parse(str(text))).children)


def escape_markdown(text: object) -> str:
    """Plain text (a message, an error, an id, a reason) as Markdown that shows it literally.

    For ``st.markdown``, ``st.caption``, ``st.error`` and the other calls that render Markdown.
    Every character that could start Markdown is backslash-escaped: ``[ ] < > ` * ~ | $ & @ \\``,
    an ``_`` not inside a word, and a block marker at the start of a line (``#``, ``>``, ``-``,
    ``+``, ``=``, ``1.``), a ``:`` before a letter (a directive: ``:red[…]``); an invisible word joiner goes
    where GFM would link bare text by itself (``http://``, ``www.``, e-mail addresses); the first colon of a
    shortcode (``:smile:``, ``:material/home:``) and a sign's character (``->``) go in a plain span
    (:data:`_SHORTCODE_START`). So no image, link, HTML, emphasis, math, list, emoji, icon or colour comes
    out of it, while ordinary punctuation stays as typed. Line breaks stay.
    """
    return "\\\n".join(_escape_line(_unlinked(line.strip())) for line in str(text).strip().splitlines())


def _escape_line(line: str) -> str:
    out = []
    kept = _kept_as_typed(line)
    directives = {found.start() for found in _DIRECTIVE_START.finditer(line)}
    for index, char in enumerate(line):
        before, after = line[index - 1 : index], line[index + 1 : index + 2]
        if index in kept:
            out.append(_plain(char))
        elif (
            index in directives
            or char in _ALWAYS_ESCAPED
            or (char == "_" and not (before.isalnum() and after.isalnum()))
        ):
            out.append(f"\\{char}")
        else:
            out.append(char)
    escaped = "".join(out)
    marker = _LINE_START.match(escaped)
    if marker:  # a heading, quote, list item, rule or setext underline: its marker becomes text
        cut = marker.end() - 1
        escaped = f"{escaped[:cut]}\\{escaped[cut:]}"
    return escaped


def _unlinked(text: str) -> str:
    """Text with a word joiner (U+2060) in ``http://``, ``https://`` and ``www.``, and after each ``@``."""
    return _AUTOLINK_START.sub(_WORD_JOINER, text)


def _kept_as_typed(text: str) -> set[int]:
    """Where in ``text`` a character goes in a plain span: each colon that opens a shortcode, and the
    next-to-last character of each sign Streamlit would draw as an arrow (:data:`_SHORTCODE_START`)."""
    return {found.start() for found in _SHORTCODE_START.finditer(text)} | {
        found.end() - 2 for found in _SIGN.finditer(text)
    }


def _plain(char: str) -> str:
    """One punctuation character in a plain span: ``:color[…]{foreground="inherit"}``, which Streamlit draws
    as a ``<span>`` without a class or a colour, so the text around it is drawn, and copied, as it is."""
    return f':color[\\{char}]{{foreground="inherit"}}'


def _escape(text: str) -> str:
    """Text as Markdown: every ASCII punctuation character backslash-escaped, no bare link left, no
    shortcode or sign for Streamlit to draw as something else (:data:`_SHORTCODE_START`)."""
    unlinked = _unlinked(text)
    kept = _kept_as_typed(unlinked)
    return "".join(
        _plain(char) if index in kept else f"\\{char}" if char in _PUNCTUATION else char
        for index, char in enumerate(unlinked)
    )


def _cell_text(text: str) -> str:
    """A table cell's text as :func:`_escape` writes it, each word longer than :data:`LONG_WORD` characters in a
    plain span of its own, which :func:`document_style` lets break anywhere."""
    out, position = [], 0
    for found in _LONG_WORD.finditer(text):
        out += [_escape(text[position : found.start()]), f':color[{_escape(found.group())}]{{foreground="inherit"}}']
        position = found.end()
    return "".join([*out, _escape(text[position:])])


#: What every box a document is drawn in (:func:`inert_markdown`) has in its key: :data:`DOCUMENT_STYLE` applies there.
DOCUMENT_BOX = "document-text"
#: The style of a document's box (:data:`DOCUMENT_BOX`): a table cell's long word (:data:`LONG_WORD`) breaks
#: anywhere, and a table still wider than the box scrolls inside it, so the page never scrolls sideways. A word
#: is cut only where it must be: every cell breaking anywhere would let a table squeeze a column of short words
#: ("11:00", "Topic") to a letter or two, to give the width to a column of long text.
DOCUMENT_STYLE = (
    "<style>[class*='st-key-'][class*='document-text'] [data-testid='stMarkdownContainer'] table"
    " { display: block; max-width: 100%; overflow-x: auto; }"
    " [class*='st-key-'][class*='document-text'] [data-testid='stMarkdownContainer'] :is(td, th) > span:not([class])"
    " { overflow-wrap: anywhere; }</style>"
)


def document_style() -> None:
    """Draws :data:`DOCUMENT_STYLE` (a style of ours only; it takes no room where it is drawn) for the document
    boxes, whose keys hold :data:`DOCUMENT_BOX`."""
    st.html(DOCUMENT_STYLE)


def _fence(content: str, least: int) -> str:
    return "`" * max(least, 1 + max((len(run) for run in _BACKTICKS.findall(content)), default=0))


def _inline(nodes: list[SyntaxTreeNode], *, one_line: bool = False, in_table: bool = False) -> str:
    out = []
    for node in nodes:
        kind = node.type
        if kind == "text":
            out.append(_cell_text(node.content) if in_table else _escape(node.content))
        elif kind in ("softbreak", "hardbreak"):
            out.append(" " if one_line else ("\n" if kind == "softbreak" else "\\\n"))
        elif kind in ("em", "strong", "s"):
            mark = node.markup or {"em": "*", "strong": "**", "s": "~~"}[kind]  # as written: flanking rules differ
            out.append(mark + _inline(node.children, one_line=one_line, in_table=in_table) + mark)
        elif kind == "code_inline":
            code = node.content.replace("|", "\\|") if in_table else node.content
            fence = _fence(code, 1)
            pad = " " if code[:1] in ("`", " ") or code[-1:] in ("`", " ") else ""
            out.append(f"{fence}{pad}{code}{pad}{fence}")
        elif kind == "image":  # the brackets are safe: no definition is ever written, and what follows is escaped
            out.append(f"[image: {_inline(node.children, one_line=True, in_table=in_table)}]")
        elif kind == "link":  # its text, then its target as plain text (``https:// host``)
            label = _inline(node.children, one_line=one_line, in_table=in_table)
            href = _escape_line(_unlinked(str(node.attrs.get("href", "")).replace("://", ":// ")))
            # Without a label the target's "(" is escaped: right after an image's "[image: alt]" it
            # would make a link of the two.
            out.append(
                label if node.markup == "autolink" or not href else f"{label} ({href})" if label else f"\\({href})"
            )
        else:  # html_inline and anything unforeseen: its source, as text
            out.append(_escape(node.content.replace("\n", " ")))
    return "".join(out)


def _blocks(nodes: list[SyntaxTreeNode], *, tight: bool = False) -> str:
    return ("\n" if tight else "\n\n").join(_block(node) for node in nodes)


def _prefixed(body: str, first: str, rest: str) -> str:
    lines = body.split("\n")
    return "\n".join([(first + lines[0]).rstrip(), *((rest + line).rstrip() if line else "" for line in lines[1:])])


def _block(node: SyntaxTreeNode) -> str:
    kind = node.type
    if kind in ("paragraph", "heading"):
        inline = node.children[0].children if node.children else []
        if kind == "paragraph":
            return _inline(inline)
        return f"{'#' * int(node.tag[1:])} {_inline(inline, one_line=True)}".rstrip()
    if kind == "blockquote":
        return "\n".join(f"> {line}".rstrip() for line in _blocks(node.children).split("\n"))
    if kind in ("bullet_list", "ordered_list"):
        tight = all(child.hidden for item in node.children for child in item.children if child.type == "paragraph")
        start = int(node.attrs.get("start", 1))
        items = []
        for index, item in enumerate(node.children):
            marker = f"{start + index}{node.markup}" if kind == "ordered_list" else node.markup
            items.append(_prefixed(_blocks(item.children, tight=tight), f"{marker} ", " " * (len(marker) + 1)))
        return ("\n" if tight else "\n\n").join(items)
    if kind in ("fence", "code_block"):
        code = node.content.removesuffix("\n")
        fence = _fence(code, 3)
        language = node.info.split()[0] if node.info.split() else ""
        language = language if re.fullmatch(r"[A-Za-z0-9_+#.-]+", language) else ""
        return f"{fence}{language}\n{code}\n{fence}" if code else f"{fence}{language}\n{fence}"
    if kind == "hr":
        return "***"
    if kind == "table":
        rows = [
            [
                _inline(cell.children[0].children if cell.children else [], one_line=True, in_table=True)
                for cell in row.children
            ]
            for section in node.children
            for row in section.children
        ]
        header = node.children[0].children[0].children
        rule = [_ALIGN.get(str(cell.attrs.get("style", "")), "---") for cell in header]
        return "\n".join(f"| {' | '.join(cells)} |" for cells in [rows[0], rule, *rows[1:]])
    # html_block and anything unforeseen: its source, line by line, as text
    return "\\\n".join(_escape(line.strip()) for line in node.content.strip("\n").split("\n"))


#: A state value longer than this, with a line break, is a document (a lecture draft): it is read as text.
LONG_TEXT = 300


def long_texts(values: Mapping[str, Any], limit: int = LONG_TEXT) -> tuple[dict[str, Any], dict[str, str]]:
    """A decoded state split in two: the values for a JSON view, and its documents, to render as Markdown.

    A top-level text over ``limit`` characters with a line break (a lecture's draft or final plan)
    is one escaped string in a JSON view, thousands of pixels tall; it is taken out of the view (no
    stand-in that could read as its value) and returned by key, to be rendered with :func:`inert_markdown`.
    """
    shown: dict[str, Any] = {}
    documents: dict[str, str] = {}
    for key, value in values.items():
        if isinstance(value, str) and len(value) > limit and "\n" in value:
            documents[key] = value
        else:
            shown[key] = value
    return shown, documents
