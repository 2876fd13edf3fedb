"""Opening a page of a running dashboard the way every browser test does: make what it shows with the CLI,
open it, wait until its run has ended."""

from __future__ import annotations

import subprocess
from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import Locator, Page

from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from tests.browser.conftest import Dashboard, wait_for_app


def cli_ok(dashboard: Dashboard, *args: str) -> subprocess.CompletedProcess[str]:
    """Runs ``python -m agents *args`` against the dashboard's database; the command must succeed."""
    done = dashboard.cli(*args)
    assert done.returncode == 0, done.stderr
    return done


#: The styles the query asks for are in effect: presenter mode's type size (``dashboard.presenter.STYLE``) and
#: Korean's line breaking (``dashboard.i18n.KOREAN_STYLE``). The frame draws each as an element of its own,
#: which a page served again by the same dashboard can draw after the rest, so a run that has ended is not
#: yet a page laid out as it will stay.
STYLES_IN_EFFECT = """([present, korean]) => {
  const main = document.querySelector('[data-testid="stMain"]');
  if (!main) return false;
  const larger = !present || getComputedStyle(document.documentElement).fontSize === '22px';
  return larger && (!korean || getComputedStyle(main).wordBreak === 'keep-all');
}"""


def open_page(page: Page, dashboard: Dashboard, path: str = "", size: tuple[int, int] | None = None) -> Locator:
    """Opens ``path`` (with its query) of the dashboard, at ``size`` (width, height) if given, waits until the
    page's run has ended with the styles its query asks for in effect and its fonts loaded, and returns its
    main block."""
    if size is not None:
        page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(f"{dashboard.url}/{path}")
    laid_out(page, path)
    return page.get_by_test_id("stMain")


def laid_out(page: Page, path: str) -> None:
    """Waits until the page opened at ``path`` has ended its run with the styles its query asks for in effect
    and its fonts loaded: until then, a Korean page's text can still break into other lines and move what is
    below it (a row to click, a box to measure)."""
    wait_for_app(page)
    query = parse_qs(urlsplit(f"/{path}").query)
    page.wait_for_function(STYLES_IN_EFFECT, arg=[query.get("present") == ["1"], query.get("lang") == ["ko"]])
    page.evaluate("() => document.fonts.ready.then(() => true)")


def lecture_flags() -> list[str]:
    """The CLI flags of the lecture's default request (``DEFAULT_LECTURE_INPUT``), for ``run lecture``."""
    return [
        flag for name, value in DEFAULT_LECTURE_INPUT.items() for flag in (f"--{name.replace('_', '-')}", str(value))
    ]
