"""Every change a page makes is made as the session's identity: each ``runs`` operation gets ``actor=``.

``agents.runs`` defaults to the local operator (every right), so an operation a page called without
``actor=`` would run with every right even for a signed-in viewer. This reads the pages' source.
"""

from __future__ import annotations

import ast

from tests.conftest import PROJECT_ROOT

OPERATIONS = {
    "start_run",
    "resume_thread",
    "resume_from_fields",
    "update_thread",
    "restore_checkpoint",
    "continue_thread",
    "delete_thread",
}


def _calls_without_actor() -> tuple[int, list[str]]:
    sources = [
        PROJECT_ROOT / "streamlit_app.py",
        *PROJECT_ROOT.glob("app_pages/*.py"),
        *PROJECT_ROOT.glob("dashboard/*.py"),
    ]
    seen, missing = 0, []
    for path in sources:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                continue
            owner = node.func.value
            if node.func.attr in OPERATIONS and isinstance(owner, ast.Name) and owner.id == "runs":
                seen += 1
                if not any(keyword.arg == "actor" for keyword in node.keywords):
                    missing.append(f"{path.relative_to(PROJECT_ROOT)}:{node.lineno} runs.{node.func.attr}")
    return seen, missing


def test_every_runs_operation_in_the_dashboard_names_its_actor() -> None:
    seen, missing = _calls_without_actor()
    assert seen >= 15  # the pages' and forms' operations were found at all
    assert missing == []
