"""A dashboard the tests start keeps serving however much it prints: its output is read to the end
(``tests/serving.py: running_streamlit``), as a pipe nobody reads stops the writer once the pipe is full."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from tests.browser.conftest import wait_for_app
from tests.serving import dashboard_env, free_port, local_url, running_streamlit

#: What each run of the page prints: twice a Linux pipe's 64 KiB.
PRINTED_PER_RUN = 128 * 1024


def test_a_server_printing_more_than_a_pipe_holds_keeps_running_its_page(page: Page, tmp_path: Path) -> None:
    output: list[str] = []
    port = free_port()
    env = dashboard_env(tmp_path / "unused.sqlite", LOUD_APP_BYTES=str(PRINTED_PER_RUN))
    with running_streamlit(env, port, script="tests/browser/loud_app.py", output=output):
        page.goto(local_url(port))
        wait_for_app(page)
        for run in range(2, 5):
            page.get_by_role("button", name="Run again").click()
            expect(page.get_by_text(f"runs: {run}", exact=True)).to_be_visible()
    assert sum(len(line) for line in output) >= 4 * PRINTED_PER_RUN  # every run's output was read
