"""Security checks: no HTML rendering of data, secrets never shown or logged, no browser-chosen DB."""

from __future__ import annotations

import ast
import re

from agents import runs
from agents.nodelog import node_runs
from tests.conftest import PROJECT_ROOT

UI_SOURCES = [
    PROJECT_ROOT / "streamlit_app.py",
    *PROJECT_ROOT.glob("app_pages/*.py"),
    *PROJECT_ROOT.glob("dashboard/**/*.py"),
]
FAKE_KEY = "AIzaFAKE-test-key-0123456789"

#: Streamlit calls that render HTML, and the argument that turns HTML on.
HTML_CALLS = {"html", "components.html", "components.v1.html"}


def _calls(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            yield node


def _constant_styles(tree: ast.Module) -> set[str]:
    """Module-level names bound to a literal ``<style>`` block: HTML of ours, with no data in it."""
    return {
        target.id
        for node in tree.body
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
        and re.fullmatch(r"<style>[^<]*</style>", node.value.value)
        for target in node.targets
        if isinstance(target, ast.Name)
    }


def test_no_ui_code_renders_html():
    offenders = []
    for path in UI_SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        styles = _constant_styles(tree)
        for call in _calls(tree):
            name = ast.unparse(call.func)
            only_a_style = name == "st.html" and [ast.unparse(arg) for arg in call.args] in (
                [style] for style in styles
            )
            if any(name.endswith(html) for html in HTML_CALLS) and name.startswith(("st.", "components")):
                if not only_a_style:  # presenter mode's larger type: a constant stylesheet
                    offenders.append(f"{path.name}:{call.lineno} {name}")
            for keyword in call.keywords:
                if keyword.arg == "unsafe_allow_html" and not (
                    isinstance(keyword.value, ast.Constant) and keyword.value.value is False
                ):
                    offenders.append(f"{path.name}:{call.lineno} unsafe_allow_html")
    assert offenders == []


def test_the_database_path_is_not_taken_from_the_browser():
    for path in UI_SOURCES:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"query_params[^\n]*(db|HITL_DB)", text), path.name
        assert "from_conn_string" not in text and "open_store(" not in text.replace(
            "return runtime.open_store(path, busy_timeout=busy_timeout)", ""
        ), path.name


def test_a_key_in_the_environment_never_reaches_pages_logs_or_errors(app, store, settings, monkeypatch, capsys, caplog):
    monkeypatch.setenv("GOOGLE_API_KEY", FAKE_KEY)
    monkeypatch.setenv("TAVILY_API_KEY", FAKE_KEY)
    runs.start_run(store, settings, "robot", {})
    for page in ("app_pages/home.py", "app_pages/robot.py"):
        at = app(page)
        assert FAKE_KEY not in str(at._tree)
    assert all(FAKE_KEY not in str(row) for row in node_runs(store))
    captured = capsys.readouterr()
    assert FAKE_KEY not in captured.out + captured.err + caplog.text
    with store.read() as cursor:
        cursor.execute("SELECT COUNT(*) FROM checkpoints WHERE CAST(metadata AS TEXT) LIKE ?", (f"%{FAKE_KEY}%",))
        assert cursor.fetchone()[0] == 0
