"""``inert_markdown`` and ``escape_markdown``: user and model text can never make a browser fetch or follow anything.

Each output is parsed again with markdown-it-py (the parser ``inert_markdown`` uses) and must hold
no image, link or HTML token; and no URL may be left where a GFM renderer (Streamlit's) would turn
it into a link by itself. Ordinary Markdown must still render as Markdown.
"""

from __future__ import annotations

import json
import os
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode

from dashboard.safe_markdown import LONG_WORD, escape_markdown, inert_markdown
from tests.conftest import PROJECT_ROOT
from tests.factories import refuse_at_the_pause

PARSER = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
UNSAFE = {"image", "link", "html_inline", "html_block"}
OUTSIDE = "http://127.0.0.1:9"

#: Each case: Markdown that makes a browser fetch (or follow) a URL when rendered as it is.
HOSTILE = {
    "inline image": f"![a]({OUTSIDE}/a.png)",
    "nested-bracket image": f"![a[b]]({OUTSIDE}/nested.png)",
    "deeply nested brackets": f"![a[b[c]d]e]({OUTSIDE}/deep.png)",
    "image with a title": f'![t]({OUTSIDE}/t.png "title")',
    "image in angle brackets": f"![t](<{OUTSIDE}/angle one.png>)",
    "reference image": f"![r][ref]\n\n[ref]: {OUTSIDE}/ref.png",
    "collapsed reference image": f"![ref][]\n\n[ref]: {OUTSIDE}/ref.png",
    "shortcut reference image": f"![ref]\n\n[ref]: {OUTSIDE}/ref.png",
    "reference defined first": f"[ref]: {OUTSIDE}/ref.png\n\nText ![r][ref] after.",
    "inline link": f"[click]({OUTSIDE}/link)",
    "reference link": f"[click][ref]\n\n[ref]: {OUTSIDE}/link",
    "image inside a link": f"[![i]({OUTSIDE}/i.png)]({OUTSIDE}/l)",
    "autolink": f"<{OUTSIDE}/auto>",
    "email autolink": "<someone@example.com>",
    "bare URL (GFM autolink literal)": f"see {OUTSIDE}/bare and www.example.com or someone@example.com",
    "raw img tag": f'<img src="{OUTSIDE}/tag.png">',
    "raw img tag inline": f'text <img src="{OUTSIDE}/tag.png" onerror="alert(1)"> text',
    "raw HTML block": f'<div>\n<img src="{OUTSIDE}/block.png">\n</div>',
    "raw link tag": f'<a href="{OUTSIDE}/a">a</a>',
    "picture and source": f'<picture><source srcset="{OUTSIDE}/s.png"></picture>',
    "data URL image": "![d](data:image/png;base64,iVBORw0KGgo=)",
    "data URL img tag": '<img src="data:image/png;base64,iVBORw0KGgo=">',
    "javascript link": "[x](javascript:alert(1))",
    "entity-encoded tag": f"&lt;img src={OUTSIDE}/entity.png&gt;",
    "HTML comment": "<!-- <img src=x> -->",
    "math (KaTeX)": r"$\includegraphics{http://127.0.0.1:9/k.png}$ and $$\href{http://x}{y}$$",
    "image in a table cell": f"| a | b |\n| --- | --- |\n| ![c]({OUTSIDE}/cell.png) | [l]({OUTSIDE}/l) |",
    "image in a list in a quote": f"> - item ![q]({OUTSIDE}/q.png)\n>   [r][ref]\n\n[ref]: {OUTSIDE}/r",
    "image in a heading": f"# Title ![h]({OUTSIDE}/h.png)",
    "image in emphasis": f"**bold ![b]({OUTSIDE}/b.png)** *em [l]({OUTSIDE}/l)*",
    "setext heading with image": f"![s]({OUTSIDE}/s.png)\n===",
    "escaped-looking image": f"\\![a]({OUTSIDE}/a.png)",
    "image then a link without a label": "Intro ![a](i.png)[](//127.0.0.1:9/x)",
    "image then a mailto link without a label": "![a](i.png)[](mailto:someone@example.com)",
}


def _tokens(markdown: str) -> list[SyntaxTreeNode]:
    return list(SyntaxTreeNode(PARSER.parse(markdown)).walk())


#: What Streamlit's Markdown (remark-gfm) links by itself in text, after escapes are resolved.
GFM_BARE_LINK = re.compile(r"(https?://|www(?=\.))[-.\w]+", re.IGNORECASE)
GFM_EMAIL = re.compile(r"[-.\w+]+@[-\w]+(?:\.[-\w]+)+")
WORD_JOINER = "\u2060"
#: One character in a plain span (``dashboard.safe_markdown._plain``), as markdown-it-py reads it (it knows no
#: directives): Streamlit draws the character alone.
PLAIN_SPAN_TEXT = re.compile(r':color\[(.)\]\{foreground="inherit"\}')


def _assert_inert(rendered: str) -> None:
    """No image, link or HTML token, no text GFM would link by itself; without code, no live ``< $``,
    and no live ``[`` but the one of ``[image: alt]``."""
    nodes = _tokens(rendered)
    kinds = {node.type for node in nodes}
    assert not kinds & UNSAFE, (kinds & UNSAFE, rendered)
    for node in nodes:
        if node.type == "text":
            assert not GFM_BARE_LINK.search(node.content) and not GFM_EMAIL.search(node.content), rendered
    if not kinds & {"code_inline", "fence", "code_block"}:  # code shows its text as it is
        unescaped = re.sub(r"\\.", "", rendered)  # drop every escaped character, then plain spans' marks
        unescaped = re.sub(r':color\[|\]\{foreground="inherit"\}', "", unescaped)
        assert not re.search(r"[<$]|\[(?!image: )", unescaped), rendered


@pytest.mark.parametrize("source", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_markdown_is_inert(source: str):
    assert {node.type for node in _tokens(source)} & UNSAFE or re.search(r"://|javascript:|\$", source)
    _assert_inert(inert_markdown(source))


@pytest.mark.parametrize("source", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_text_escaped_is_literal(source: str):
    rendered = escape_markdown(source)
    _assert_inert(rendered)
    # Plain text stays plain text: the parse yields the characters typed, line by line.
    text = PLAIN_SPAN_TEXT.sub(r"\1", "".join(node.content for node in _tokens(rendered) if node.type == "text"))
    assert text.replace(WORD_JOINER, "") == "".join(line.strip() for line in source.strip().splitlines())


def test_images_and_links_become_text_that_says_what_they_were():
    assert inert_markdown(f"![a[b]]({OUTSIDE}/x.png)") == r"[image: a\[b\]]"
    assert inert_markdown(f"![r][ref]\n\n[ref]: {OUTSIDE}/ref.png") == "[image: r]"
    assert inert_markdown(f"[click]({OUTSIDE}/link)") == "click (http:// 127.0.0.1:9/link)"
    assert inert_markdown("[a](https://www.example.com/x_y*)") == "a (https:// www\u2060.example.com/x_y\\*)"
    assert inert_markdown(f"<{OUTSIDE}/auto>") == "http\\:\u2060\\/\\/127\\.0\\.0\\.1\\:9\\/auto"
    assert inert_markdown("<someone@example.com>") == "someone\\@\u2060example\\.com"
    assert inert_markdown("a <b>bold</b> c") == r"a \<b\>bold\<\/b\> c"


def test_a_planted_draft_keeps_its_text_and_loses_its_fetches():
    draft = (
        f"# Plan: ![a[b]]({OUTSIDE}/n.png)\n\n| Topic | ![r][ref] |\n| --- | --- |\n| x | <img src=y> |\n\n"
        f"[ref]: {OUTSIDE}/r.png\n\n- one ![i]({OUTSIDE}/i.png)\n- two\n"
    )
    rendered = inert_markdown(draft)
    _assert_inert(rendered)
    kinds = [node.type for node in _tokens(rendered)]
    assert kinds.count("heading") == 1 and "table" in kinds and "bullet_list" in kinds


ORDINARY = {
    "headings": "# One\n\n## Two\n\n### Three",
    "setext heading": "Title\n=====",
    "bullet list": "- a\n- b\n  - nested\n- c",
    "ordered list": "1. first\n2. second\n\n3) other",
    "loose list": "- a\n\n- b",
    "table": "| Start | End | Session |\n| :--- | ---: | :---: |\n| 09:00 | 11:00 | s1. Intro |",
    "emphasis": "*em*, **strong**, ***both***, ~~struck~~ and _under_",
    "inline code": "use `st.text` and ``a `tick` b``",
    "code block": "```python\nprint('![x](y)')\n```",
    "indented code": "    code here\n    more",
    "quote": "> quoted\n> text",
    "rule": "above\n\n---\n\nbelow",
    "hard break": "line one  \nline two",
    "korean": "# 강의 계획\n\n- **목표**: 업무에 바로 쓰는 AI 활용법 (1일 8시간)",
}


def _text(markdown: str) -> str:
    return "".join(node.content for node in _tokens(markdown) if node.type == "text")


def _shape(markdown: str) -> list[tuple[str, str]]:
    """The parse tree's node kinds with their text, which is what a reader sees."""
    return [
        (node.type, node.content if node.type in ("text", "code_inline", "fence", "code_block") else "")
        for node in _tokens(markdown)
        if node.type not in ("inline", "root")
    ]


@pytest.mark.parametrize("source", ORDINARY.values(), ids=ORDINARY.keys())
def test_ordinary_markdown_still_renders(source: str):
    rendered = inert_markdown(source)
    shape = [(kind if kind != "code_block" else "fence", text) for kind, text in _shape(source)]
    assert [(kind if kind != "code_block" else "fence", text) for kind, text in _shape(rendered)] == shape


def test_table_alignment_and_code_are_kept():
    rendered = inert_markdown("| a | b | c |\n| :-- | --: | :-: |\n| `x|y` | 2 | 3 |".replace("x|y", "x\\|y"))
    assert rendered.splitlines()[1] == "| :--- | ---: | :---: |"
    assert r"`x\|y`" in rendered


def test_code_keeps_its_text_verbatim():
    rendered = inert_markdown("```\n<img src=x> ![a](b) ```` \n```")
    fence = next(node for node in _tokens(rendered) if node.type == "fence")
    assert fence.content == "<img src=x> ![a](b) ```` \n"


def test_escape_markdown_keeps_lines_and_every_character():
    assert escape_markdown("a *b* `c`\n[d](e)") == "a \\*b\\* \\`c\\`\\\n\\[d\\](e)"
    assert escape_markdown("") == ""
    # Ordinary punctuation, ids and words stay as typed, so messages read the same in the source.
    assert escape_markdown("Nothing was done: amount: got '1_0' (refund-B8, 건-1042, 案件_7).") == (
        "Nothing was done: amount: got '1_0' (refund-B8, 건-1042, 案件_7)."
    )
    assert escape_markdown(ValueError("got '![x](y)'")) == "got '!\\[x\\](y)'"
    assert escape_markdown("# a\n- b\n1. c\n> d\n---") == "\\# a\\\n\\- b\\\n1\\. c\\\n\\> d\\\n\\---"
    assert escape_markdown("_x_ a_b *y*") == "\\_x\\_ a_b \\*y\\*"
    assert escape_markdown("see www.x.com, a@b.co or https://x") == (
        "see www\u2060.x.com, a\\@\u2060b.co or https:\u2060//x"
    )


#: What Streamlit's front end rewrites within one text node once escapes are resolved: a shortcode into an
#: emoji (remark-emoji), ``:material_…:`` into an icon, ``:streamlit:`` into its logo, a sign between spaces
#: into an arrow or a dash.
REWRITTEN = re.compile(r":\+1:|:-1:|:[\w-]+:|:material[/_]\w+:|(?:^|\s)(?:<->|->|<-|--|>=|<=|~=)(?:\s|$)", re.ASCII)
#: A colon that opens a directive (``:red[text]``, ``:small``), other than a plain span's.
DIRECTIVE = re.compile(r":(?=[A-Za-z])(?!color\[)")
SHORTCODES = {
    "emoji": "yes :smile: :+1: :-1: :100: :streamlit:",
    "icon": ":material/home: and :material/warning",
    "colour directive": ":red[빨강] Note:red and :small x:foo{bar}",
    "overlapping": ":a:b:c: ::smile:: x:smile:y",
    "signs": "a -> b <- c <-> d -- e >= f <= g ~= h",
    "sign against a shortcode": "x --:smile: <-:+1:",
}


def _drawn_text_nodes(markdown: str) -> list[str]:
    """The text nodes Streamlit's front end would hold: markdown-it-py's text, cut where a plain span is."""
    texts = [node.content for node in _tokens(markdown) if node.type == "text"]
    return [piece for text in texts for piece in PLAIN_SPAN_TEXT.split(text)]


def _assert_kept_as_typed(rendered: str) -> None:
    for piece in _drawn_text_nodes(rendered):
        assert not REWRITTEN.search(piece), (piece, rendered)
    assert ":material/" not in rendered, rendered  # rewritten in the source, escaped or not
    assert not DIRECTIVE.search(re.sub(r"\\.", "__", rendered)), rendered


@pytest.mark.parametrize("source", SHORTCODES.values(), ids=SHORTCODES.keys())
def test_shortcodes_signs_and_directives_are_kept_as_typed(source: str):
    for rendered in (escape_markdown(source), inert_markdown(source)):
        _assert_kept_as_typed(rendered)
        _assert_inert(rendered)
        # What is drawn is the text typed: each plain span holds one of its characters.
        assert PLAIN_SPAN_TEXT.sub(r"\1", "".join(_drawn_text_nodes(rendered))) == source


def test_a_shortcode_in_a_heading_a_table_and_a_link_target_is_kept_as_typed():
    rendered = inert_markdown(
        "# Title :smile:\n\n| a | :smile: |\n| --- | --- |\n| x | :red[r] |\n\n"
        "[l](http://x.example/:smile:/:material/home:)"
    )
    _assert_kept_as_typed(rendered)
    assert 'Title :color[\\:]{foreground="inherit"}smile\\:' in rendered
    assert 'x.example/:color[\\:]{foreground="inherit"}smile:/:color[\\:]{foreground="inherit"}material/home:' in (
        rendered
    )


def test_a_long_word_in_a_table_cell_is_a_span_of_its_own_and_nowhere_else():
    long = "a" * (LONG_WORD + 1)
    rendered = inert_markdown(f"| a | b |\n| --- | --- |\n| 11:00 | {long} and {'b' * LONG_WORD} |\n\n{long}")
    assert f'| 11\\:00 | :color[{long}]{{foreground="inherit"}} and {"b" * LONG_WORD} |' in rendered
    assert rendered.endswith(f"\n\n{long}")  # a paragraph wraps a long word by itself
    assert _text(rendered).count(long) == 2


def test_ordinary_colons_and_dashes_stay_as_typed_in_the_source():
    assert escape_markdown("Nothing was done: 10:30, --values, x - y") == "Nothing was done: 10:30, --values, x - y"


SHORTCODE_LIKE = st.lists(
    st.sampled_from([*":: -<>=~+*_[]{}\n", "smile", "material/", "home", "red", "1", "a", "**", "# "]), max_size=24
).map("".join)


@settings(max_examples=300, deadline=None)
@given(SHORTCODE_LIKE)
def test_no_text_is_ever_drawn_as_an_emoji_icon_sign_or_directive(source: str):
    _assert_kept_as_typed(escape_markdown(source))
    _assert_kept_as_typed(inert_markdown(source))


def test_rendering_twice_shows_the_same_text():
    for source in [*HOSTILE.values(), *ORDINARY.values()]:
        once = inert_markdown(source)
        assert _text(inert_markdown(once)) == _text(once), source
        escaped = escape_markdown(source)
        assert _text(inert_markdown(escaped)) == _text(escaped), source


MARKDOWNISH = st.lists(
    st.sampled_from(
        [
            *"ab !-[]()<>:/.*_`#|\\\n&;=\"'@$~1",
            "http://",
            "www.",
            "![",
            "](",
            "]: ",
            "    ",
            "<img src=",
            "\n\n",
            "| --- |",
            "> ",
            "- ",
            "1. ",
        ]
    ),
    max_size=30,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(MARKDOWNISH)
def test_no_text_ever_yields_an_image_link_or_html(source: str):
    _assert_inert(inert_markdown(source))
    _assert_inert(escape_markdown(source))


# --- The pages: planted text and crafted links never reach a Markdown renderer as Markdown --------

CRAFTED_THREADS = [
    f"![q]({OUTSIDE}/x.png)",
    f"![a[b]]({OUTSIDE}/n.png)",
    f'<img src="{OUTSIDE}/y.png">',
    f"[l]({OUTSIDE}/l)",
    "www.example.com",
    "x" * 300,
]
PLANTED = f"![p]({OUTSIDE}/p.png) ![a[b]]({OUTSIDE}/n.png) ![r][ref] <img src={OUTSIDE}/t.png> www.example.com"
PLANTED_BLOCK = f"{PLANTED}\n\n[ref]: {OUTSIDE}/ref.png"


def _plant(run_cli, monkeypatch) -> dict[str, str]:
    """Threads whose fields, answers, refusals and drafts hold Markdown that would fetch; thread per page."""
    lecture = dict(
        topic=PLANTED,
        audience_level=PLANTED,
        duration="3 hours",
        delivery_method=PLANTED,
        platform_tools="python",
        constraints=PLANTED_BLOCK,
    )
    flags = [item for name, value in lecture.items() for item in (f"--{name.replace('_', '-')}", value)]
    assert run_cli("run", "lecture", "--thread", "lecture-planted", *flags).code == 0
    draft = f"# Edited\n\n{PLANTED_BLOCK}\n\n| a | b |\n| --- | --- |\n| ![c]({OUTSIDE}/c.png) | x |"
    assert run_cli("update", "lecture-planted", "--values", json.dumps({"draft": draft})).code == 0
    monkeypatch.setenv("HITL_PLAN_REVIEW", "on")
    assert run_cli("run", "lecture", "--thread", "lecture-review", *flags).code == 0
    twice = [{"title": f"![p]({OUTSIDE}/p.png)"}, {"title": f"![p]({OUTSIDE}/p.png)"}, {"title": "c"}]
    edit = {"action": "edit_plan", "subtopics": twice}
    assert "appears twice" in refuse_at_the_pause("lecture-review", edit, os.environ["HITL_DB"], HITL_PLAN_REVIEW="on")
    monkeypatch.delenv("HITL_PLAN_REVIEW")
    assert (
        run_cli(
            "run",
            "refund",
            "--case",
            "planted",
            "--customer",
            f"![c]({OUTSIDE}/c.png) <b>Kim</b>",
            "--amount",
            "500000",
            "--reason",
            PLANTED_BLOCK,
        ).code
        == 0
    )
    assert run_cli("run", "robot", "--thread", "robot-planted").code == 0
    assert run_cli("resume", "robot-planted", PLANTED).code == 0
    return {
        "app_pages/home.py": "lecture-planted",
        "app_pages/robot.py": "robot-planted",
        "app_pages/refund.py": "refund-planted",
        "app_pages/lecture.py": "lecture-review",
        "app_pages/explorer.py": "lecture-planted",
        "app_pages/timeline.py": "lecture-planted",
    }


def _markdown_bodies(at) -> list[str]:
    """Every piece of Markdown the page sent to the browser: bodies of text elements, metrics, labels."""
    bodies = [
        element.value
        for kind in (
            "markdown",
            "caption",
            "error",
            "warning",
            "info",
            "success",
            "title",
            "header",
            "subheader",
            "toast",
        )
        for element in getattr(at, kind)
    ]
    bodies += [element.label for element in at.expander]
    bodies += [text for element in at.metric for text in (element.label, element.value)]  # Markdown too
    widgets = ("text_input", "text_area", "selectbox", "radio", "checkbox", "toggle", "number_input", "button")
    bodies += [element.label for kind in widgets for element in getattr(at, kind)]
    return [str(body) for body in bodies]


@pytest.mark.parametrize(
    "page",
    [
        "app_pages/home.py",
        "app_pages/robot.py",
        "app_pages/refund.py",
        "app_pages/lecture.py",
        "app_pages/explorer.py",
        "app_pages/timeline.py",
    ],
)
def test_pages_render_planted_text_and_crafted_links_inertly(page, run_cli, monkeypatch):
    from streamlit.testing.v1 import AppTest

    from tests.conftest import APP_FILE

    planted_thread = _plant(run_cli, monkeypatch)[page]
    drawn = 0
    for thread in [*CRAFTED_THREADS, planted_thread, "lecture-planted"]:
        at = AppTest.from_file(APP_FILE, default_timeout=60)
        at.query_params["thread"] = thread
        at.switch_page(page)
        at.run()
        assert not at.exception, at.exception
        for body in _markdown_bodies(at):
            nodes = _tokens(body)
            assert not {node.type for node in nodes} & {"image", "link"}, (page, thread, body)
            for node in nodes:
                if node.type in ("html_inline", "html_block"):  # the catalogue's own "<case id>" is not HTML
                    assert "127.0.0.1" not in node.content and "img" not in node.content, (page, thread, body)
                if node.type == "text":
                    assert not GFM_BARE_LINK.search(node.content), (page, thread, body)
                    assert not GFM_EMAIL.search(node.content), (page, thread, body)
            drawn += 1
    assert drawn


def test_the_page_icon_is_not_fetched_from_a_font_server():
    """A ``:material/...:`` page icon makes every page load its SVG from fonts.gstatic.com."""
    source = (PROJECT_ROOT / "streamlit_app.py").read_text(encoding="utf-8")
    icon = re.search(r"page_icon=([^,)]+)", source)
    assert icon and ":material/" not in icon.group(1)
