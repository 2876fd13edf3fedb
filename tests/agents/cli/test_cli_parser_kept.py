"""The command line's parser is made once per language and made again when the registered agents change."""

from __future__ import annotations

import pytest

from agents import registry
from agents.cli import build_parser
from tests.plugin_agent.agent import SPEC


def _run_commands(lang: str) -> set[str]:
    parser = build_parser(lang)
    commands = next(action for action in parser._actions if action.dest == "command")
    run = commands.choices["run"]
    agents = next(action for action in run._actions if getattr(action, "choices", None) and action.dest != "lang")
    return set(agents.choices)


def test_the_parser_of_a_language_is_made_once_and_each_language_has_its_own():
    assert build_parser("en") is build_parser("en")
    assert build_parser("ko") is build_parser("ko")
    assert build_parser("en") is not build_parser("ko")
    assert "사용법" in build_parser("ko").format_usage()


def test_an_agent_registered_later_gets_its_run_command_and_loses_it_when_removed(monkeypatch: pytest.MonkeyPatch):
    before = build_parser("en")
    assert SPEC.name not in _run_commands("en")
    with monkeypatch.context() as patch:
        patch.setitem(registry.AGENTS, SPEC.name, SPEC)
        assert build_parser("en") is not before
        assert SPEC.name in _run_commands("en")
    assert SPEC.name not in _run_commands("en")
