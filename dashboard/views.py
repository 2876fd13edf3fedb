"""Small drawing helpers shared by pages. User and model text is always drawn as text."""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd
import streamlit as st
from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode

from agents import lifecycle, readmodel
from agents.errors import UserError
from agents.registry import AGENTS
from agents.validation import validate_thread_id
from dashboard.formats import clean_frame, code_word, timestamp
from dashboard.i18n import current_language, localized, t, t_or
from dashboard.tables import Column, draw_table, page_url, paged_table

_PARSER = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
_PUNCTUATION = frozenset(string.punctuation)
_BACKTICKS = re.compile(r"`+")
_ALWAYS_ESCAPED = frozenset("\\`*[]<>~|$&@")
#: Streamlit's Markdown (remark-gfm) links bare ``http://``/``www.`` text and e-mail addresses in text
#: nodes after escapes are resolved, so a backslash cannot stop it; an invisible word joiner can.
_WORD_JOINER = "\u2060"
_AUTOLINK_START = re.compile(r"(?i)(?<=https:)(?=//\S)|(?<=http:)(?=//\S)|(?<=www)(?=\.)|(?<=@)(?!\u2060)")
_LINE_START = re.compile(r"[#>+=-]|[0-9]{1,9}[.)]")
_ALIGN = {"text-align:left": ":---", "text-align:right": "---:", "text-align:center": ":---:"}


def inert_markdown(text: str) -> str:
    """User or model Markdown made safe to render: formatting kept, nothing a browser would fetch or follow.

    The text is parsed with markdown-it-py (CommonMark, tables, strikethrough) and written back
    as Markdown in which every character of text is escaped. Headings, lists, quotes, tables,
    emphasis and code still render; images (inline, nested-bracket or by reference), links,
    autolinks and raw HTML become plain text (``[image: alt]``, ``text (url)``), so no URL in
    the text can make a viewer's browser fetch anything. The result passed through again shows the same text.
    """
    return _blocks(SyntaxTreeNode(_PARSER.parse(str(text))).children)


def escape_markdown(text: object) -> str:
    """Plain text (a message, an error, an id, a reason) as Markdown that shows it literally.

    For ``st.markdown``, ``st.caption``, ``st.error`` and the other calls that render Markdown.
    Every character that could start Markdown is backslash-escaped: ``[ ] < > ` * ~ | $ & @ \\``,
    an ``_`` not inside a word, and a block marker at the start of a line (``#``, ``>``, ``-``,
    ``+``, ``=``, ``1.``); an invisible word joiner goes where GFM would link bare text by itself
    (``http://``, ``www.``, e-mail addresses). So no image, link, HTML, emphasis, math or list
    comes out of it, while ordinary punctuation stays as typed. Line breaks stay.
    """
    return "\\\n".join(_escape_line(_unlinked(line.strip())) for line in str(text).strip().splitlines())


def _escape_line(line: str) -> str:
    out = []
    for index, char in enumerate(line):
        before, after = line[index - 1 : index], line[index + 1 : index + 2]
        if char in _ALWAYS_ESCAPED or (char == "_" and not (before.isalnum() and after.isalnum())):
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


def _escape(text: str) -> str:
    """Text as Markdown: every ASCII punctuation character backslash-escaped, no bare link left."""
    return "".join(f"\\{char}" if char in _PUNCTUATION else char for char in _unlinked(text))


def _fence(content: str, least: int) -> str:
    return "`" * max(least, 1 + max((len(run) for run in _BACKTICKS.findall(content)), default=0))


def _inline(nodes: list[SyntaxTreeNode], *, one_line: bool = False, in_table: bool = False) -> str:
    out = []
    for node in nodes:
        kind = node.type
        if kind == "text":
            out.append(_escape(node.content))
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
            out.append(label if node.markup == "autolink" or not href else f"{label} ({href})".lstrip())
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


def lazy_expander(label: str, key: str) -> Any:
    """A collapsed expander whose content is made only while it is open, or None while it is closed.

    Opening it reruns the page (Streamlit's ``on_change="rerun"``), and the session keeps it open under
    ``key``; a closed one sends no elements, so a table or JSON view in it costs a new tab nothing.
    """
    box = st.expander(label, key=key, on_change="rerun")
    return box if box.open else None


def payload_summary(payload: Any) -> str:
    """One line for an interrupt payload: its question, or its JSON."""
    if isinstance(payload, dict) and isinstance(payload.get("question"), str):
        return payload["question"]
    return readmodel.to_json(payload).replace("\n", " ")


def describe_status(status: str, outcome: str, why: str) -> str:
    """A status in words: ``done · paid``, ``needs attention · <why>``, ``waiting``."""
    if status == "done":
        return f"{t('status.done')} · {code_word('outcome', outcome)}"
    if status == "attention":
        return f"{t('status.attention')} · {why}"
    return code_word("status", status)


def status_text(status: lifecycle.ThreadStatus) -> str:
    """A thread's status in a few words, e.g. ``needs attention · a step failed`` (for lists)."""
    return describe_status(status.status, status.outcome, t_or(f"reason.{status.reason_code}", status.reason_code))


def thread_columns() -> list[Column[lifecycle.ThreadStatus]]:
    """The columns of a threads table: thread, agent, status, last update, checkpoints."""
    return [
        Column(t("col.thread"), lambda x: x.thread_id),
        Column(t("col.agent"), lambda x: x.agent),
        Column(t("col.status"), status_text),
        Column(t("col.updated"), lambda x: timestamp(x.updated_at)),
        Column(t("col.checkpoints"), lambda x: x.checkpoint_count),
    ]


def status_search_text(status: lifecycle.ThreadStatus) -> str:
    """What a search matches in a thread's row: id, agent (name and title), status and reason."""
    title = t_or(f"agent.{status.agent}.title", status.agent)
    return " ".join((status.thread_id, status.agent, title, status_text(status), status.reason))


def thread_link(status: lifecycle.ThreadStatus) -> str | None:
    """The link to the thread on its agent's page (None: no page knows its agent)."""
    spec = AGENTS.get(status.agent)
    return page_url(spec.page.url_path, status.thread_id) if spec is not None else None


def show_threads(key: str, load: Callable[[], list[lifecycle.ThreadStatus]], empty_text: str) -> None:
    """A paged, searchable threads table with a link to each thread's page."""
    paged_table(key, load, thread_columns(), empty_text=empty_text, search_text=status_search_text, link=thread_link)


def show_inbox(key: str, load: Callable[[], list[lifecycle.ThreadStatus]], empty_text: str) -> None:
    """The inbox: every unfinished thread with its status, its reason (as text) and a link to act.

    One paged, searchable table (a fragment: searching or paging reruns it alone, with fresh rows).
    """
    _inbox(key, load, empty_text)


@st.fragment
def _inbox(key: str, load: Callable[[], list[lifecycle.ThreadStatus]], empty_text: str) -> None:
    items = load()
    if not items:
        st.info(empty_text)
        return
    counts = {kind: sum(item.status == kind for item in items) for kind in ("waiting", "attention", "running")}
    keys = {"waiting": "home.inbox_count", "attention": "home.inbox_attention", "running": "home.inbox_running"}
    st.caption(" · ".join(t(keys[kind], count=count) for kind, count in counts.items() if count))
    columns = [
        Column(t("col.agent"), lambda x: t_or(f"agent.{x.agent}.title", x.agent)),
        Column(t("col.thread"), lambda x: x.thread_id),
        Column(t("col.status"), status_text),
        Column(t("col.reason"), lambda x: x.reason_in(current_language())),
        Column(t("col.action"), lambda x: t(f"action.{x.action}") if x.action else ""),
        Column(t("col.updated"), lambda x: timestamp(x.updated_at)),
    ]
    draw_table(key, items, columns, empty_text=empty_text, search_text=status_search_text, link=thread_link)


def preselect_query_thread(
    known: dict[str, lifecycle.ThreadStatus], *, page: str, agent_key: str, thread_key: str
) -> None:
    """Preselects the agent and thread named by ``?thread=``, once per link.

    An invalid or unknown id gets a clear message (``<page>.bad_thread`` /
    ``<page>.unknown_thread``) and selects nothing.
    """
    requested = st.query_params.get("thread")
    if not requested:
        return
    try:
        thread_id = validate_thread_id(requested)
    except UserError as error:
        st.error(escape_markdown(t(f"{page}.bad_thread", error=localized(error))))
        return
    if thread_id not in known or known[thread_id].agent not in AGENTS:
        st.warning(escape_markdown(t(f"{page}.unknown_thread", thread=thread_id)))
        return
    applied_key = f"{page}:query-thread"
    if st.session_state.get(applied_key) != thread_id:
        st.session_state[applied_key] = thread_id
        st.session_state[agent_key] = known[thread_id].agent
        st.session_state[thread_key] = thread_id


def keep_valid(key: str, options: Sequence[str], default: str) -> None:
    """A selectbox's remembered value must be one of its current options."""
    if st.session_state.get(key) not in options:
        st.session_state[key] = default


def pick_thread(
    threads: list[lifecycle.ThreadStatus],
    *,
    page: str,
    agent_key: str,
    thread_key: str,
    empty_key: str,
    columns: int = 2,
) -> tuple[str, str | None, list[Any]]:
    """The agent and thread pickers of the explorer and the timeline, preselected by ``?thread=``.

    Returns:
        The agent, the chosen thread (None: the agent has none, and ``empty_key`` is shown) and
        the columns after the two pickers (``columns`` in all).
    """
    preselect_query_thread({x.thread_id: x for x in threads}, page=page, agent_key=agent_key, thread_key=thread_key)
    agents = list(AGENTS)
    newest_agent = next((x.agent for x in threads if x.agent in AGENTS), agents[0])
    keep_valid(agent_key, agents, newest_agent)
    left, middle, *rest = st.columns(columns)
    agent = left.selectbox(
        t(f"{page}.agent"),
        agents,
        key=agent_key,
        format_func=lambda name: t_or(f"agent.{name}.title", AGENTS[name].title),
    )
    own = {x.thread_id: x for x in threads if x.agent == agent}
    if not own:
        st.info(t(empty_key))
        return agent, None, rest
    keep_valid(thread_key, list(own), next(iter(own)))
    with middle:
        thread_id = bounded_select(
            t(f"{page}.thread"),
            list(own),
            key=thread_key,
            format_func=lambda tid: f"{tid} · {status_text(own[tid])}",
            search_text=lambda tid: status_search_text(own[tid]),
        )
    return agent, thread_id, rest


#: Options a picker offers at once: the selected one and the first matching ones.
PICKER_LIMIT = 100


def bounded_select(
    label: str,
    options: Sequence[str],
    *,
    key: str,
    format_func: Callable[[str], str],
    search_text: Callable[[str], str],
    limit: int = PICKER_LIMIT,
) -> str:
    """A selectbox over at most ``limit`` options (and the selected one), narrowed by a search field.

    Below the limit it is a plain selectbox. Above it, a search field (``<key>:find``) narrows the
    options; the selected option is always offered, so a selection made elsewhere (a link, a click
    on a chart) stays. Only the offered options are labelled, so 10,000 threads cost 100 labels.
    """
    selected = st.session_state.get(key)
    offered = list(options)
    if len(offered) > limit or st.session_state.get(f"{key}:find"):
        query = st.text_input(t("table.find", what=label), key=f"{key}:find", help=t("table.search.help")).strip()
        folded = query.casefold()
        found = [o for o in offered if not folded or folded in search_text(o).casefold()]
        kept = [str(selected)] if selected in options else []
        offered = kept + [o for o in found if o != selected][:limit]
        if len(found) > limit:
            st.caption(t("table.find_more", shown=limit, total=len(found)))
    return str(st.selectbox(label, offered, key=key, format_func=format_func))


def show_table(frame: pd.DataFrame, empty_text: str, **kwargs: Any) -> None:
    """A dataframe (cells are text, never HTML; a missing value is an empty cell), or a caption when it has no rows."""
    if frame.empty:
        st.caption(empty_text)
    else:
        st.dataframe(clean_frame(frame), hide_index=True, width="stretch", **kwargs)
