"""Opening a page of a running dashboard the way every browser test does: make what it shows with the CLI,
open it, wait until its run has ended."""

from __future__ import annotations

import subprocess

from playwright.sync_api import Locator, Page

from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from tests.browser.conftest import Dashboard, wait_for_app


def cli_ok(dashboard: Dashboard, *args: str) -> subprocess.CompletedProcess[str]:
    """Runs ``python -m agents *args`` against the dashboard's database; the command must succeed."""
    done = dashboard.cli(*args)
    assert done.returncode == 0, done.stderr
    return done


def open_page(page: Page, dashboard: Dashboard, path: str = "", size: tuple[int, int] | None = None) -> Locator:
    """Opens ``path`` (with its query) of the dashboard, at ``size`` (width, height) if given, waits until the
    page's run has ended and returns its main block."""
    if size is not None:
        page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(f"{dashboard.url}/{path}")
    wait_for_app(page)
    return page.get_by_test_id("stMain")


def lecture_flags() -> list[str]:
    """The CLI flags of the lecture's default request (``DEFAULT_LECTURE_INPUT``), for ``run lecture``."""
    return [
        flag for name, value in DEFAULT_LECTURE_INPUT.items() for flag in (f"--{name.replace('_', '-')}", str(value))
    ]
