"""An agent is a plug-in: a fourth agent defined under ``tests/`` appears everywhere from one registry line.

The greeter (``tests/plugin_agent/agent.py``) is registered with one line and
nothing else is edited; it is then found in the navigation, the string
catalogue, the database's tables, the settings, the CLI's ``run`` command, the
inbox (CLI and home page), its own page, the generic sidebar forms and
``langgraph_app``.
"""

from __future__ import annotations

import importlib
import json
import sqlite3

import pytest
from streamlit.testing.v1 import AppTest

from agents import lifecycle, registry, runs, runtime
from agents.errors import InputError
from dashboard.i18n import catalogue, t
from dashboard.navigation import pages
from tests.conftest import APP_FILE
from tests.factories import table_cells
from tests.plugin_agent.agent import SPEC

pytestmark = pytest.mark.usefixtures("greeter")


@pytest.fixture
def greeter(monkeypatch: pytest.MonkeyPatch) -> None:
    """The one registry line (undone after the test)."""
    monkeypatch.setitem(registry.AGENTS, SPEC.name, SPEC)


def test_the_navigation_and_the_catalogue_have_its_page_and_strings():
    entry = next(page for page in pages() if page.url_path == "greeter")
    assert entry.path == "tests/plugin_agent/page.py" and entry.title_key == "nav.greeter"
    assert t("nav.greeter", lang="ko") == "인사 도우미"
    assert "agent.greeter.description" in catalogue()


def test_the_store_creates_its_table_and_a_run_writes_to_it(db_path):
    store = runtime.open_store(db_path)
    settings = runtime.load_settings(db_override=str(db_path), secrets={})
    waiting = runs.start_run(store, settings, "greeter", {"name": "kim"})
    assert waiting.status == "waiting" and waiting.thread_id == "greeter-kim"
    done = runs.resume_from_fields(store, settings, "greeter-kim", {"answer": "send"})
    assert done.status == "done" and done.outcome == "sent"
    store.close()
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("SELECT greeting FROM greeter_sent").fetchall() == [("Hello, kim!",)]


def test_its_settings_are_typed_and_a_bad_value_is_refused_by_name(db_path):
    settings = runtime.load_settings(db_override=str(db_path), secrets={}, environ={"HITL_GREETER_WORD": "HI"})
    assert settings.agent("greeter").word == "hi"
    assert runtime.graph_options(settings, "greeter") == {"word": "hi"}
    with pytest.raises(InputError, match="HITL_GREETER_WORD"):
        runtime.load_settings(db_override=str(db_path), secrets={}, environ={"HITL_GREETER_WORD": "yo"})


def test_the_cli_runs_it_and_its_inbox_lists_it(run_cli):
    started = run_cli("run", "greeter", "--name", "lee", "--json")
    assert started.code == 0 and json.loads(started.out)["status"] == "waiting"
    inbox = json.loads(run_cli("inbox", "--json").out)
    assert [(row["thread_id"], row["agent"]) for row in inbox] == [("greeter-lee", "greeter")]
    refused = run_cli("resume", "greeter-lee", "maybe")
    assert refused.code == 2 and "answer: must be send or drop" in refused.err
    done = run_cli("resume", "greeter-lee", "drop", "--json")
    assert json.loads(done.out)["outcome"] == "dropped"


def test_home_lists_it_waiting_and_its_page_and_the_generic_forms_act_on_it(store, settings):
    runs.start_run(store, settings, "greeter", {"name": "park"})
    assert [item.thread_id for item in lifecycle.inbox(store)] == ["greeter-park"]
    home = AppTest.from_file(APP_FILE, default_timeout=60)
    home.run()
    assert not home.exception
    assert "greeter-park" in table_cells(home) and "greeter?thread=greeter-park" in table_cells(home)
    page = AppTest.from_file(APP_FILE, default_timeout=60)
    page.query_params["thread"] = "greeter-park"
    page.run()
    page.switch_page("tests/plugin_agent/page.py")
    page.run()
    assert not page.exception
    assert page.title[0].value == "Greeter"
    assert [text.value for text in page.text] == ["greeter-park: waiting"]
    answer = page.sidebar.selectbox(key="resume-answer-greeter-park")
    answer.select("send")
    submit = next(button for button in page.sidebar.button if button.label == "Resume")
    submit.click().run()
    assert not page.exception
    assert runs.current_result(store, settings, "greeter-park").outcome == "sent"


def test_langgraph_app_serves_its_graph(db_location):
    # Imported again, as a server's first import sees the registry: the line added, the factory there.
    runtime.configured.cache_clear()
    module = importlib.reload(importlib.import_module("agents.langgraph_app"))
    try:
        graph = module.served_graph("greeter")
        assert {"greet", "ask", "finish"} <= set(graph.nodes)
        assert callable(module.__dict__["greeter"])  # what langgraph.json's server looks up
        runtime.configured()[1].close()
    finally:
        runtime.configured.cache_clear()
