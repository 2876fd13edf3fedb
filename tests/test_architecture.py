"""The architecture as documented: small modules, and a document whose every path and name exists."""

from __future__ import annotations

import importlib
import re
import warnings

import pytest
import vulture

from tests.conftest import PROJECT_ROOT

SOURCE_ROOTS = ("agents", "dashboard", "app_pages")
#: Past this many lines a module is reported (a hint to look for a second concern, not a limit to
#: meet by moving lines); past the hard ceiling it fails.
WARN_MODULE_LINES = 600
MAX_MODULE_LINES = 1000
#: A page script reads its inputs, calls functions and draws their results; its logic lives in tested
#: functions of ``dashboard/`` or the agent's package.
MAX_PAGE_LINES = 200
DOC = PROJECT_ROOT / "docs" / "ARCHITECTURE.md"
#: A backticked path: has a slash or a file suffix, and no spaces or call syntax.
PATH = re.compile(r"^[\w./-]+(/|\.(py|md|toml|json))$|^[\w.-]+/[\w./-]*$")
#: A backticked dotted name in the project's packages, e.g. ``agents.runs.RunResult``.
NAME = re.compile(r"^(agents|dashboard)(\.\w+)+")
#: Paths the document names that a checkout does not hold, and why.
NOT_IN_A_CHECKOUT = {
    ".streamlit/secrets.toml": "git-ignored; the operator writes it (see its .example)",
    "data/checkpoints.sqlite": "git-ignored; the default database, created on first use",
}
AGENT_PACKAGES = ("robot", "refund", "lecture")


def _sources() -> list:
    files = [PROJECT_ROOT / "streamlit_app.py"]
    for root in SOURCE_ROOTS:
        files += sorted((PROJECT_ROOT / root).rglob("*.py"))
    return files


@pytest.mark.parametrize("path", _sources(), ids=lambda path: str(path.relative_to(PROJECT_ROOT)))
def test_a_long_source_module_is_reported(path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    if lines > WARN_MODULE_LINES:
        warnings.warn(f"{path.relative_to(PROJECT_ROOT)} has {lines} lines: does it hold two concerns?", stacklevel=1)
    assert lines <= MAX_MODULE_LINES, f"{path.relative_to(PROJECT_ROOT)} has {lines} lines"


@pytest.mark.parametrize("path", sorted((PROJECT_ROOT / "app_pages").glob("*.py")), ids=lambda path: path.name)
def test_a_page_script_stays_thin(path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_PAGE_LINES, f"app_pages/{path.name} has {lines} lines: move its logic into dashboard/"


def _backticked() -> list[str]:
    text = re.sub(r"```.*?```", "", DOC.read_text(encoding="utf-8"), flags=re.S)
    return re.findall(r"`([^`\n]+)`", text)


def _picture_paths() -> list[str]:
    picture = re.search(r"```\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
    assert picture, "the layer picture is missing"
    return re.findall(r"[\w./]+(?:\.py|/)", picture.group(1))


def test_every_path_in_the_architecture_document_exists():
    paths = [token for token in _backticked() if PATH.match(token)] + _picture_paths()
    assert len(paths) > 20  # the pattern found the document's paths at all
    missing = sorted({path for path in paths if path not in NOT_IN_A_CHECKOUT and not _exists(path)})
    assert missing == []


def _exists(path: str) -> bool:
    """A path from the project root; a bare file name not at the root (the agent package table) is in every
    agent's package."""
    if "/" not in path and not (PROJECT_ROOT / path).exists():
        return all((PROJECT_ROOT / "agents" / agent / path).exists() for agent in AGENT_PACKAGES)
    return (PROJECT_ROOT / path.split(":")[0]).exists()


def _resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            target = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            if not hasattr(target, attribute):
                return False
            target = getattr(target, attribute)
        return True
    return False


def test_every_name_in_the_architecture_document_exists():
    names = [match.group(0) for token in _backticked() if (match := NAME.match(token))]
    assert len(names) > 20
    missing = sorted({name for name in names if not _resolves(name)})
    assert missing == []


#: What calls a function by name without the name in our code: FastAPI's routes (registered by their
#: decorator), LangChain's chat model and callback hooks, the stream handler's hook it overrides, and the
#: ``email`` package's header folding (a mail's ``Subject``).
CALLED_BY_FRAMEWORKS = ("_llm_type", "_identifying_params", "_generate", "_agenerate", "on_chain_end", "_send", "fold")
#: Called by the benchmarks alone, which time the product's paths through them. (The benchmarks are not
#: scanned as callers: they call an earlier commit's modules by name, which would hide any function.)
TIMED_BY_BENCHMARKS = ("of_run", "checkpoint_figure")
ROUTE_DECORATORS = ("@router.*", "@app.*")


def test_no_function_is_unused_outside_the_tests():
    """A function, method or class nothing calls but a test is dead code: the tests pin a path the product
    never takes."""
    ignored = CALLED_BY_FRAMEWORKS + TIMED_BY_BENCHMARKS
    finder = vulture.Vulture(verbose=False, ignore_names=ignored, ignore_decorators=ROUTE_DECORATORS)
    finder.scavenge([str(path) for path in _sources()])
    unused = [
        f"{item.filename.relative_to(PROJECT_ROOT)}:{item.first_lineno} {item.typ} {item.name}"
        for item in finder.get_unused_code(min_confidence=60)
        if item.typ in ("function", "method", "class", "property")
    ]
    assert unused == []
