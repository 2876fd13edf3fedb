"""A fourth agent, added by following "Adding an agent" in ``docs/ARCHITECTURE.md`` and nothing else.

The project is copied into a temporary folder; the steps of that section are carried out there for a
small agent, ``memo``, which declares little and takes every other hook's default; then the copy runs
it through the CLI (start, wait, inbox, resume, done), loads its graph as LangGraph's server loads
``langgraph.json``, shows its page, and holds its import contracts. The section's list of steps must
name every file the test wrote or edited, so the document cannot omit a step the agent needs.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.conftest import PROJECT_ROOT

pytestmark = pytest.mark.slow

NAME = "memo"

PACKAGE = {
    "__init__.py": '"""The memo agent: writes a memo, asks whether to keep it."""\n',
    "state.py": '''
        """The memo's state."""

        from typing import TypedDict


        class MemoState(TypedDict, total=False):
            text: str
            memo: str
            answer: str
    ''',
    "graph.py": '''
        """The memo's graph: write, ask, finish."""

        from typing import Any

        from langgraph.graph import END, START, StateGraph
        from langgraph.types import interrupt

        from agents.common import node_decorator, require_checkpointer
        from agents.memo.state import MemoState


        def write(state: MemoState) -> dict[str, Any]:
            return {"memo": state["text"].upper()}


        def ask(state: MemoState) -> dict[str, Any]:
            return {"answer": str(interrupt({"question": "keep this memo? (keep/drop)", "memo": state["memo"]}))}


        def finish(state: MemoState) -> dict[str, Any]:
            return {}


        def build_graph(checkpointer: Any, *, store: Any = None) -> Any:
            saver = require_checkpointer(checkpointer, "memo")
            log = node_decorator(store, "memo")
            builder = StateGraph(MemoState)
            for node in (write, ask, finish):
                builder.add_node(node.__name__, log(node))
            builder.add_edge(START, "write")
            builder.add_edge("write", "ask")
            builder.add_edge("ask", "finish")
            builder.add_edge("finish", END)
            return builder.compile(checkpointer=saver)
    ''',
    "strings.py": '''
        """The memo's UI strings."""

        STRINGS = {
            "nav.memo": ("Memo", "메모"),
            "agent.memo.title": ("Memo", "메모"),
            "agent.memo.description": ("Writes a memo and asks whether to keep it.", "메모를 쓰고 남길지 묻습니다."),
        }
    ''',
    "spec.py": '''
        """The memo as the dashboard and CLI see it: every hook not named here is the default."""

        from agents.memo.strings import STRINGS
        from agents.spec import AgentPage, AgentSpec, AskPart, Field, RunPart, ShowPart, imported_on_call

        ANSWER = Field(name="answer", kind="choice", label="Answer", choices=("keep", "drop"))

        SPEC = AgentSpec(
            name="memo",
            title="Memo",
            description="Writes a memo and asks whether to keep it.",
            run=RunPart(
                build_graph=imported_on_call("agents.memo.graph", "build_graph"),
                start_fields=(Field(name="text", label="Text", max_length=80),),
            ),
            ask=AskPart(check_resume=ANSWER.validate, resume_fields=(ANSWER,), make_resume=lambda v: v["answer"]),
            show=ShowPart(page=AgentPage("app_pages/memo.py", ":material/note:", "memo"), strings=STRINGS),
        )
    ''',
}

PAGE = '''
    """The memo's page: its waiting threads and the generic sidebar forms."""

    import streamlit as st

    from agents import lifecycle
    from dashboard import resources
    from dashboard.forms import sidebar_forms
    from dashboard.i18n import t

    store, settings = resources.store(), resources.settings()
    st.title(t("agent.memo.title"))
    for item in lifecycle.inbox(store, agent="memo"):
        st.text(f"{item.thread_id}: {item.status}")
    sidebar_forms(store, settings, st.query_params.get("thread"))
'''

#: What LangGraph's server does with a ``langgraph.json`` entry: import the file by its path, read the
#: name from the module's namespace, and call it with a config that carries its own checkpointer.
SERVER_LOAD = """
import asyncio, importlib.util, json, sys
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.constants import CONFIG_KEY_CHECKPOINTER

path, _, name = json.load(open("langgraph.json"))["graphs"]["memo"].partition(":")
spec = importlib.util.spec_from_file_location("served", path)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
graph = asyncio.run(module.__dict__[name]({"configurable": {CONFIG_KEY_CHECKPOINTER: InMemorySaver()}}))
state = graph.invoke({"text": "served"}, {"configurable": {"thread_id": "served-1"}})
print(json.dumps({"nodes": sorted(graph.nodes), "memo": state["memo"], "asked": bool(state["__interrupt__"])}))
"""

#: The dashboard of the copy, on the memo's page with a waiting thread named in the URL.
PAGE_RUN = """
import json
from streamlit.testing.v1 import AppTest

app = AppTest.from_file("streamlit_app.py", default_timeout=60)
app.query_params["thread"] = "m2"
app.run()
app.switch_page("app_pages/memo.py")
app.run()
print(json.dumps({"error": bool(app.exception), "title": app.title[0].value, "texts": [t.value for t in app.text]}))
"""


def _documented_steps() -> list[str]:
    """The file or folder each numbered step of "Adding an agent" names first, ``<name>`` filled in."""
    text = (PROJECT_ROOT / "docs" / "ARCHITECTURE.md").read_text()
    section = text.split("### Adding an agent", 1)[1].split("\n#", 1)[0]
    steps = re.findall(r"^\d+\. `([^`]+)`", section, flags=re.MULTILINE)
    return [step.replace("<name>", NAME) for step in steps]


def _write(root: Path, relative: str, source: str) -> str:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(source).lstrip())
    return relative


def _edit(root: Path, relative: str, old: str, new: str) -> str:
    path = root / relative
    text = path.read_text()
    assert old in text, f"{relative} no longer has {old!r}"
    path.write_text(text.replace(old, new))
    return relative


def _add_the_agent(root: Path) -> set[str]:
    """Carries out the documented steps in ``root``; returns every file written or edited."""
    touched = {_write(root, f"agents/{NAME}/{module}", source) for module, source in PACKAGE.items()}
    touched.add(
        _edit(
            root,
            "agents/registry.py",
            "from agents.lecture.spec import SPEC as LECTURE\n",
            "from agents.lecture.spec import SPEC as LECTURE\nfrom agents.memo.spec import SPEC as MEMO\n",
        )
    )
    touched.add(_edit(root, "agents/registry.py", "(ROBOT, REFUND, LECTURE)", "(ROBOT, REFUND, LECTURE, MEMO)"))
    touched.add(_write(root, f"app_pages/{NAME}.py", PAGE))
    config = json.loads((root / "langgraph.json").read_text())
    config["graphs"][NAME] = f"./agents/langgraph_app.py:{NAME}"
    (root / "langgraph.json").write_text(json.dumps(config, indent=2))
    touched.add("langgraph.json")
    touched.add(
        _edit(
            root,
            "pyproject.toml",
            '"agents.robot | agents.refund | agents.lecture"',
            '"agents.robot | agents.refund | agents.lecture | agents.memo"',
        )
    )
    touched.add(_edit(root, "pyproject.toml", '"agents.lecture"]', '"agents.lecture", "agents.memo"]'))
    return touched


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the project's source, configuration and dashboard."""
    root = tmp_path / "project"
    ignore = shutil.ignore_patterns("__pycache__")
    for folder in ("agents", "dashboard", "app_pages", ".streamlit"):
        shutil.copytree(PROJECT_ROOT / folder, root / folder, ignore=ignore)
    for name in ("streamlit_app.py", "langgraph.json", "pyproject.toml"):
        shutil.copy(PROJECT_ROOT / name, root / name)
    return root


def _run(root: Path, db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, "PYTHONPATH": str(root), "HITL_DB": str(db)}
    return subprocess.run([sys.executable, *args], cwd=root, env=environ, capture_output=True, text=True, timeout=300)


def _cli(root: Path, db: Path, *args: str) -> dict:
    done = _run(root, db, "-m", "agents", *args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_documented_steps_add_a_working_fourth_agent(project: Path, tmp_path: Path):
    touched = _add_the_agent(project)
    steps = _documented_steps()
    for path in touched:  # every file the agent needed is named by a step
        assert any(path == step or path.startswith(step.rstrip("/") + "/") for step in steps), path
    assert all(any(p == s or p.startswith(s.rstrip("/") + "/") for p in touched) for s in steps), steps

    db = tmp_path / "memo.sqlite"
    started = _cli(project, db, "run", NAME, "--text", "buy milk", "--thread", "m1")
    assert (started["thread_id"], started["status"]) == ("m1", "waiting")
    assert [(row["thread_id"], row["agent"]) for row in _cli(project, db, "inbox")] == [("m1", NAME)]
    refused = _run(project, db, "-m", "agents", "resume", "m1", "maybe")
    assert refused.returncode == 2 and "answer" in refused.stderr
    done = _cli(project, db, "resume", "m1", "keep")
    assert (done["status"], done["outcome"]) == ("done", "finished")
    assert _cli(project, db, "inbox") == []
    named = _cli(project, db, "run", NAME, "--text", "call mum")  # no thread named: a new one
    assert named["status"] == "waiting" and named["thread_id"] != "m1"

    served = _run(project, db, "-c", SERVER_LOAD)
    assert served.returncode == 0, served.stderr
    assert json.loads(served.stdout.splitlines()[-1]) == {
        "nodes": ["__start__", "ask", "finish", "write"],
        "memo": "SERVED",
        "asked": True,
    }

    _cli(project, db, "run", NAME, "--text", "page", "--thread", "m2")
    page = _run(project, db, "-c", PAGE_RUN)
    assert page.returncode == 0, page.stderr
    shown = json.loads(page.stdout.splitlines()[-1])
    assert (shown["error"], shown["title"]) == (False, "Memo")
    assert sorted(shown["texts"]) == sorted([f"{named['thread_id']}: waiting", "m2: waiting"])

    contracts = _run(project, db, "-c", "from importlinter.cli import lint_imports_command; lint_imports_command()")
    assert contracts.returncode == 0, contracts.stdout + contracts.stderr
    assert "agents.memo" in (project / "pyproject.toml").read_text()
