"""Every page in Korean, on a database with threads of every agent in every status: no English shows.

Each page is drawn with Streamlit's AppTest (``?lang=ko``), with each kind of thread selected where a
page selects one, and every text a user can read is collected: Markdown, captions, headings, alerts,
buttons, labels, help texts, placeholders, options, metrics, expanders, tabs, status boxes, code, the
values of JSON views and the headers and cells of every table; then the page is drawn again after the
actions whose messages it shows (a refused delete, a decision, the pitfall demo). A word of Latin
letters found there must be one of the allow-list below (code names, node names, units, product
names), typed by a user, or part of an id, a hex string, a code span or a file name; otherwise the
test fails, naming each word and the text it was found in. The threads were started in Korean, so
what the agents wrote is Korean too; English quoted from a library (:data:`QUOTED`) is taken out first,
with a warning naming where it comes from.
"""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Iterator
from typing import Any
from unittest.mock import patch

import pytest
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Block, Dataframe, Node

from agents import lifecycle, readmodel, runs, runtime
from agents.errors import RunFailedError
from agents.leases import thread_lease
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from agents.refund.graph import PITFALL_REQUEST
from agents.registry import AGENTS, get_agent
from dashboard.i18n import catalogue, t
from tests.conftest import APP_FILE
from tests.factories import answer_robot, button_by_key, messages, pause_robot, start_refund
from tests.shown_markdown import as_read

#: Words that may show in Korean text: code names, node and channel names, agent names used as code,
#: units, formats and product names.
ALLOWED = {
    # products, formats, units, the language switch
    "hitl", "langgraph", "sqlite", "json", "csv", "markdown", "bm25", "gemini", "tavily", "openai", "ai",
    "krw", "utc", "id", "english", "http",
    # the language codes (?lang=en, ?lang=ko)
    "en", "ko",
    # code names: the refund policies, the run of a graph
    "strict", "reroute", "run",
    # agents and their nodes, used as code
    "robot", "refund", "lecture", "propose", "approval", "execute", "assess", "review", "settle", "reject",
    "validate", "plan", "research", "write", "gate", "decide", "save",
    # LangGraph's message types in a decoded write, and the robot's two literal answers (typed as they are)
    "human", "yes", "no", "null", "uuid",
}  # fmt: skip

#: Stored codes (statuses, outcomes, decisions, node-log statuses, checkpoint sources, run languages, the
#: lecture's reviewers): the save file keeps them in English. The robot page's and the explorer's raw views
#: (decoded state, writes, metadata) show the save file as it is, so there a value that is exactly one code
#: is not English left to translate; everywhere else the code is shown as a word.
STORED_CODES = {
    key.split(".", 1)[1] for key in catalogue() if key.split(".")[0] in ("status", "outcome", "decision", "nodelog")
} | {"input", "loop", "update", "fork", "en", "ko", "content", "time_allocation", "difficulty"}
RAW_VIEW_PAGES = {"robot", "explorer"}

#: English quoted as it is, not the dashboard's own words: LangGraph's error in the pitfall demo. It is
#: taken out of the page's text before the check, and the test warns with what it took out.
QUOTED: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("langgraph (its error, quoted in the pitfall demo)", re.compile(r"No checkpointer set")),
)

#: A whole token that is code, an id or a file name: it has an underscore, a digit, a dot inside,
#: brackets or a colon (``__interrupt__``, ``refund-C1``, ``subagent_log.csv``, ``interrupt()``, ``branch:to:*``).
_CODE_TOKEN = re.compile(r"[_0-9()\[\]{}<>:/=*]|\w\.\w")
_CODE_SPAN = re.compile(r"`[^`]*`|'[\x21-\x7e]+'|\{[^{}]*\"[^{}]*\}")
#: An exception's class name (``KeyError``) or a short id of hex digits only (``bfeacbaf``).
_NAMED = re.compile(r"[A-Z][A-Za-z]*(?:Error|Exception)|[0-9a-f]{8}")
_WORD = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)*")


def english_words(text: str, known_ids: set[str]) -> set[str]:
    """The words of ``text`` that are English: Latin letters, outside code spans, ids and the allow-list."""
    found: set[str] = set()
    for token in _CODE_SPAN.sub(" ", as_read(text)).split():
        stripped = token.strip(".,;:!?\"'“”‘’()[]·—–…")
        if not stripped or stripped in known_ids or _CODE_TOKEN.search(stripped) or _NAMED.fullmatch(stripped):
            continue
        for word in _WORD.findall(stripped):
            if len(word) > 1 and word.casefold() not in ALLOWED and word not in USER_WORDS:
                found.add(word)
    return found


def without_quoted(text: str, taken: set[str]) -> str:
    """``text`` without the English of :data:`QUOTED`; the sources of what was taken go to ``taken``."""
    for source, pattern in QUOTED:
        text, count = pattern.subn(" ", text)
        if count:
            taken.add(source)
    return text


# --- what a page shows ----------------------------------------------------------------------------

_TEXT_FIELDS = ("body", "label", "help", "placeholder", "code_text", "delta", "text", "title", "caption")


def _proto_texts(proto: Any) -> Iterator[str]:
    """The readable text fields of an element's or block's message (one level of sub-messages)."""
    if proto is None:
        return
    messages = [proto]
    for _descriptor, value in proto.ListFields():
        if hasattr(value, "ListFields"):
            messages.append(value)
    for message in messages:
        for descriptor, value in message.ListFields():
            if descriptor.name in _TEXT_FIELDS and isinstance(value, str):
                yield value
            elif descriptor.name in ("options", "display_options") and not isinstance(value, str):
                # A segmented control's option is a message; its text is its ``content``.
                yield from (option.content if hasattr(option, "content") else str(option) for option in value)


def _json_strings(value: Any) -> Iterator[str]:
    """The strings among a JSON value's values (its keys are state keys and channel names: code)."""
    if isinstance(value, dict):
        for item in value.values():
            yield from _json_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _json_strings(item)
    elif isinstance(value, str):
        yield value


def _cell_texts(cell: str) -> Iterator[str]:
    """A table cell's text; a cell that holds a decoded value as JSON is read like ``st.json`` (its values)."""
    if cell[:1] in "[{":
        try:
            yield from _json_strings(json.loads(cell))
        except ValueError:
            pass
        else:
            return
    yield cell


#: An HTML element that holds only a style sheet.
_STYLE_ONLY = re.compile(r"\s*<style>[^<]*</style>\s*")


def visible_texts(node: Node) -> Iterator[str]:
    """Every text a user can read in ``node`` and below it (tables: headers and cells; JSON: its values)."""
    if getattr(node, "type", None) == "json":
        yield from _json_strings(json.loads(node.proto.body))
        return
    if getattr(node, "type", None) == "html" and _STYLE_ONLY.fullmatch(node.proto.body):
        return  # a style (the Korean line breaking): it draws no text
    if isinstance(node, Dataframe):
        frame = node.value
        yield from (str(column) for column in frame.columns)
        for row in frame.itertuples(index=False):
            # booleans are drawn as check boxes, not words
            for cell in row:
                if not isinstance(cell, bool):
                    yield from _cell_texts(str(cell))
        return
    yield from _proto_texts(getattr(node, "proto", None))
    if isinstance(node, Block):
        for child in node.children.values():
            yield from visible_texts(child)


# --- a database with every agent in every status --------------------------------------------------


def _write_as(store, agent, thread, values, as_node):
    """A raw update_state through the compiled graph: what no product path may do, to make a bad state."""
    graph = runtime.graph(store, agent)
    graph.update_state(runs.run_config(get_agent(agent), thread), values, as_node=as_node)


#: The thread kept running (its lease held) while the pages are drawn.
RUNNING_THREAD = "refund-R"


#: What the people in the database typed (a lecture's tools, names): shown as typed.
USER_WORDS = {word for value in DEFAULT_LECTURE_INPUT.values() for word in _WORD.findall(str(value))}


def fill_every_status(store, settings) -> None:
    """Threads of every agent: waiting, done (each outcome), needing attention (each reason), running."""
    pause_robot(store, settings, "robot-w", lang="ko")
    answer_robot(store, settings, "robot-y", "yes", lang="ko")
    answer_robot(store, settings, "robot-n", "아니요", lang="ko")
    pause_robot(store, settings, "robot-e", lang="ko")
    runs.update_thread(store, settings, "robot-e", {"decision": "yes"}, as_node="approval")  # edited
    answer_robot(store, settings, "robot-x", "yes", lang="ko")
    first = readmodel.checkpoint_chain(store, "robot-x")[0]
    runs.update_thread(
        store, settings, "robot-x", {"decision": "x"}, as_node="approval", checkpoint_id=first.checkpoint_id
    )
    with pytest.raises(RunFailedError):
        runs.continue_thread(store, settings, "robot-x")  # a node raised
    pause_robot(store, settings, "robot-i", lang="ko")
    runs.update_thread(store, settings, "robot-i", {"decision": "yes"}, as_node="execute")  # inconsistent

    start_refund(store, settings, "W", customer="김민수", reason="배송 지연", lang="ko")
    start_refund(store, settings, "R", customer="이서연", reason="중복 결제", lang="ko")
    start_refund(store, settings, "P", 50_000, customer="박지훈", reason="단순 변심", lang="ko")
    start_refund(store, settings, "A", customer="최유진", reason="불량품", lang="ko")
    runs.resume_thread(store, settings, "refund-A", {"action": "approve", "approver": "김승인"})
    start_refund(store, settings, "E", customer="정하늘", reason="부분 환불", lang="ko")
    runs.resume_thread(store, settings, "refund-E", {"action": "edit", "amount": 300_000, "approver": "김승인"})
    start_refund(store, settings, "J", customer="한도윤", reason="사유 불명", lang="ko")
    runs.resume_thread(store, settings, "refund-J", {"action": "reject", "approver": "이거절"})
    start_refund(store, settings, "U", customer="윤서준", reason="금액 수정", lang="ko")
    runs.update_thread(store, settings, "refund-U", {"amount": 200_000})  # edited and not continued
    start_refund(store, settings, "Z", customer="오지아", reason="기록 오류", lang="ko")
    _write_as(store, "refund", "refund-Z", {"outcome": "paid"}, "settle")  # "done" with nothing paid

    values = dict(DEFAULT_LECTURE_INPUT)
    for thread in ("lecture-w", "lecture-s", "lecture-h", "lecture-j", "lecture-e"):
        runs.start_run(store, settings, "lecture", values, thread_id=thread, lang="ko")  # each waits at the gate
    runs.resume_thread(store, settings, "lecture-s", {"action": "rework", "notes": "실습을 늘려 주세요"})
    runs.resume_thread(store, settings, "lecture-h", {"action": "save"})
    runs.resume_thread(store, settings, "lecture-j", {"action": "reject"})
    runs.update_thread(store, settings, "lecture-e", {"human_notes": "메모"})  # edited and not continued


# --- the pages ------------------------------------------------------------------------------------


def _page_runs() -> list[tuple[str, str | None]]:
    """(page, thread to select) pairs: each page once, and each agent page with each kind of thread."""
    pairs: list[tuple[str, str | None]] = [("app_pages/home.py", None)]
    for spec in AGENTS.values():
        pairs.append((spec.show.page.path, None))
    robot = ["robot-w", "robot-y", "robot-n", "robot-e", "robot-x", "robot-i"]
    refund = ["refund-W", "refund-R", "refund-P", "refund-A", "refund-E", "refund-J", "refund-U", "refund-Z"]
    lecture = ["lecture-w", "lecture-s", "lecture-h", "lecture-j", "lecture-e"]
    pairs += [("app_pages/robot.py", t) for t in robot]
    pairs += [("app_pages/refund.py", t) for t in refund]
    pairs += [("app_pages/lecture.py", t) for t in lecture]
    pairs += [("app_pages/explorer.py", t) for t in ("robot-x", "refund-E", "lecture-w")]
    pairs += [("app_pages/timeline.py", t) for t in ("robot-y", "refund-A", "lecture-s")]
    return pairs


PAGES = ("home", "robot", "refund", "lecture", "explorer", "timeline")


#: The expanders whose content is made only while open (``dashboard.views.lazy_expander``): opened, so
#: what they hold is read too.
OPENED = ("robot-payload-open", "robot-queue-open", "lecture-queue-open", "lecture-node-log-open")


def draw_in_korean(page: str, thread: str | None) -> AppTest:
    """The dashboard in Korean, switched to ``page`` with ``thread`` selected (``?thread=``), every
    expander of :data:`OPENED` open."""
    at = AppTest.from_file(APP_FILE, default_timeout=60)
    at.query_params["lang"] = "ko"
    for key in OPENED:
        at.session_state[key] = True
    at.run()
    if page != "app_pages/home.py":
        if thread is not None:
            at.query_params["thread"] = thread
        at.switch_page(page)
        at.run()
    assert not at.exception, at.exception
    return at


@pytest.fixture
def every_status(store, settings) -> Iterator[set[str]]:
    """The database filled by :func:`fill_every_status`, with one thread running; yields the ids it holds."""
    fill_every_status(store, settings)
    with thread_lease(store, RUNNING_THREAD):
        yield {status.thread_id for status in lifecycle.thread_statuses(store)}


def _button(at: AppTest, label: str) -> Any:
    return next(button for button in at.button if button.label == label)


def _act(at: AppTest, page: str, thread: str | None) -> Iterator[AppTest]:
    """The page as drawn, then after the actions whose messages it shows (each redrawn page is yielded).

    AppTest labels a selectbox's value with its ``format_func`` in the test's own thread, which has no
    session and so no language; while the actions rerun the page, the language is Korean in any thread.
    """
    yield at
    with patch("dashboard.i18n.current_language", return_value="ko"):
        yield from _actions(at, page, thread)


def _actions(at: AppTest, page: str, thread: str | None) -> Iterator[AppTest]:
    if page == "app_pages/refund.py" and thread == "refund-W":
        button_by_key(at, "refund-pitfall").click().run()
        yield at
        at.sidebar.text_input(key="delete-confirm-refund-W").input("refund-X")
        _button(at, t("forms.delete.submit", lang="ko")).click().run()
        assert t("forms.refused", lang="ko") in messages(at)
        yield at
        at.text_input(key="refund-approver").input("김승인")
        button_by_key(at, "refund-approve").click().run()
        assert "W: 김승인의 승인 → 완료 · 지급됨." in messages(at)
        yield at
    if page == "app_pages/lecture.py" and thread == "lecture-w":
        at.radio(key="lecture-action-lecture-w").set_value("save")
        _button(at, t("lecture.submit_decision", lang="ko")).click().run()
        assert "그대로 저장 결정을 보냈습니다: 완료 · 그대로 저장됨." in messages(at)
        yield at


def state_keys(store) -> set[str]:
    """Every agent's state keys (channels): code names, which the raw views show as the save file has them."""
    return {key for spec in AGENTS.values() for key in runtime.graph(store, spec.name).channels if key.isidentifier()}


@pytest.mark.parametrize("name", PAGES)
def test_every_page_in_korean_shows_no_english(every_status, store, name):
    found: dict[str, set[str]] = {}  # text → its English words
    taken: set[str] = set()
    known = every_status | {PITFALL_REQUEST["case_id"]}  # ids as the database has them
    if name in RAW_VIEW_PAGES:
        known |= state_keys(store)
    for page, thread in _page_runs():
        if page != f"app_pages/{name}.py":
            continue
        for at in _act(draw_in_korean(page, thread), page, thread):
            assert not at.exception, at.exception
            for text in visible_texts(at._tree):
                if name in RAW_VIEW_PAGES and text.strip('"') in STORED_CODES:
                    continue
                words = english_words(without_quoted(text, taken), known)
                if words:
                    found.setdefault(text[:200], set()).update(words)
    if taken:
        warnings.warn(f"the {name} page still shows English of {', '.join(sorted(taken))}", stacklevel=1)
    report = "\n".join(f"- {', '.join(sorted(words))}  ←  {text!r}" for text, words in sorted(found.items()))
    assert not found, f"English on the {name} page in Korean:\n{report}"
