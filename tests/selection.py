"""Which tests are in which set: the markers given by place, and every test a run collected.

``tests/conftest.py`` calls :func:`mark_by_place` from its collection hook; ``tests/test_markers.py``
reads :data:`COLLECTED`. Both import this module by one name, so they share the stash key.
"""

from __future__ import annotations

from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parent.parent

#: Test files that take more than a few seconds on their own (subprocesses, kills, races, property runs).
#: A kill or race test in a file of quick tests is marked ``slow`` where it is defined.
SLOW_FILES = {
    "test_kill_points.py",
    "test_concurrency.py",
    "test_refund_property.py",
    "test_refund_items_property.py",
    "test_crash_resume.py",
    "test_double_submit.py",
    "test_notify_kill.py",
    # Races: the API and the CLI deciding one case at once; a lost error repeated in fresh processes.
    "test_api_race.py",
    "test_research_error_in_a_fresh_process.py",
    # Property runs: hundreds of generated names, validator inputs, Host headers and robot answers.
    "test_names_fuzz.py",
    "test_validators_property.py",
    "test_host_header_fuzz.py",
    "test_robot_answer_fuzz.py",
}

#: Every test the run collected, before ``-m`` and ``-k`` deselected any.
COLLECTED = pytest.StashKey[list[pytest.Item]]()


def mark_by_place(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Marks by place: tests/browser → ``browser`` and ``slow``; tests/reliability → ``reliability``.

    So ``-m browser``, ``-m reliability`` and ``-m "not slow"`` select what they say. Called before
    pytest's own ``-m`` selection (which reads these markers), so it sees, and keeps, every test.
    """
    config.stash[COLLECTED] = list(items)
    for item in items:
        parts = item.path.relative_to(PROJECT_ROOT).parts
        if "browser" in parts[:2]:
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.slow)
        if "reliability" in parts[:2]:
            item.add_marker(pytest.mark.reliability)
        if item.path.name in SLOW_FILES:
            item.add_marker(pytest.mark.slow)
