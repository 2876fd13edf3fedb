"""One Chromium per test process: Debian's, under Playwright, started by the first test that needs it.

Starting Playwright's driver and Chromium costs about 2.5 s of CPU; one a browser module (as the
``browser`` fixture once did) was about 100 s of a run's CPU. The process keeps its Chromium from one
browser module to the next, and stops it (:func:`stop`) before a test outside tests/browser/: Playwright's
sync API keeps an asyncio event loop running on the thread while it is open, and a test calling
``asyncio.run`` would find it. ``tests/conftest.py`` calls :func:`stop` before such a test and at the end of
the session; the files run browser files first (``longest_first``), so a process starts its Chromium a few
times at most.
"""

from __future__ import annotations

from playwright.sync_api import Browser, Playwright, sync_playwright

from tests.serving import CHROMIUM, CHROMIUM_ARGS

_running: tuple[Playwright, Browser] | None = None


def shared_browser() -> Browser:
    """The process's Chromium: started now if none runs (or the last one went away)."""
    global _running
    if _running is not None and not _running[1].is_connected():
        stop()
    if _running is None:
        playwright = sync_playwright().start()
        try:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        except BaseException:
            playwright.stop()
            raise
        _running = (playwright, browser)
    return _running[1]


def close_contexts() -> None:
    """Closes every context (and its pages) left open in the process's Chromium: a module leaves no page
    running (a live page reruns its parts every interval) for the modules after it."""
    if _running is not None and _running[1].is_connected():
        for context in _running[1].contexts:
            context.close()


def stop() -> None:
    """Stops the process's Chromium and Playwright's driver, if they run: no event loop is left running."""
    global _running
    if _running is None:
        return
    playwright, browser = _running
    _running = None
    try:
        browser.close()
    finally:
        playwright.stop()
