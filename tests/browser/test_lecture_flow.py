"""Browser flows of the lecture planner (run, gate, rework, download) and of its timeline."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.browser.conftest import Dashboard, wait_for_app
from tests.browser.opening import cli_ok, lecture_flags, open_page

SLOW = 30_000  # ms: a whole run, or Plotly's lazily loaded chart, on a busy machine


# Both tests share the module's dashboard: each acts on a lecture thread it starts itself.


def test_lecture_run_gate_rework_saves_and_downloads(page: Page, shared_dashboard: Dashboard):
    dashboard = shared_dashboard
    open_page(page, dashboard, "lecture")
    page.get_by_role("button", name="Plan the lecture").click()
    main = page.get_by_test_id("stMain")
    expect(main.get_by_text("Run finished: waiting")).to_be_visible(timeout=SLOW)
    expect(main.get_by_text("Waiting for you: round 1 scored", exact=False)).to_be_visible()

    decision = main.get_by_test_id("stForm").filter(has_text="Your decision")
    decision.get_by_text("rework: revise the flagged items").click()
    decision.get_by_role("button", name="Send decision").click()
    expect(page.get_by_text("Sent rework:", exact=False)).to_be_visible(timeout=SLOW)
    # Round 2 ends done or at a second gate; until the page shows which, round 1's question may still be shown.
    second_gate = main.get_by_text("Waiting for you: round 2", exact=False)
    done = main.get_by_test_id("stMetric").filter(has_text="Status").filter(has_text="done")
    expect(second_gate.or_(done).first).to_be_visible(timeout=SLOW)
    if second_gate.is_visible():  # a second gate: save as is
        decision.get_by_text("save as is").click()
        decision.get_by_role("button", name="Send decision").click()
    expect(main.get_by_test_id("stMetric").filter(has_text="Status")).to_contain_text("done")
    expect(main.get_by_text("Final plan", exact=True)).to_be_visible()
    expect(main.get_by_text("Saved to", exact=False)).to_be_visible()
    expect(main.get_by_test_id("stMarkdownContainer").locator("h1, h2").first).to_be_visible()

    with page.expect_download() as caught:
        main.get_by_role("button", name="Download Markdown").click()
    saved = Path(caught.value.path()).read_text(encoding="utf-8")
    assert saved.startswith("#")
    assert caught.value.suggested_filename.endswith(".md")


def _run_lecture(dashboard: Dashboard) -> str:
    started = cli_ok(dashboard, "run", "lecture", *lecture_flags(), "--json")
    thread = json.loads(started.stdout)["thread_id"]
    cli_ok(dashboard, "resume", thread, "save")
    return thread


def test_timeline_shows_parallel_research_and_speedup(page: Page, shared_dashboard: Dashboard):
    dashboard = shared_dashboard
    thread = _run_lecture(dashboard)
    open_page(page, dashboard, f"timeline?thread={thread}")
    chart = page.locator(".js-plotly-plot").first
    expect(chart.locator(".main-svg").first).to_be_visible(timeout=SLOW)
    expect(page.get_by_text(f"Thread {thread}", exact=False).first).to_be_visible()
    # The latest run (the resume after "save") is shown by default; the parallel research ran in
    # the first run, so pick "All runs of the thread", one click away at the top of the list.
    page.get_by_test_id("stMain").get_by_test_id("stSelectbox").filter(
        has=page.get_by_text("Run", exact=True)
    ).first.click()
    page.get_by_role("option", name="All runs of the thread").click()
    wait_for_app(page)
    expect(chart).to_contain_text("All runs of the thread", timeout=SLOW)
    bars = page.evaluate("""() => {
        const plot = document.querySelector('.js-plotly-plot');
        return plot._fullData.filter(t => t.type === 'bar').flatMap(t =>
            Array.from(t.base, (b, i) => ({node: t.customdata[i][0], start: b, end: b + t.x[i]})));
    }""")
    research = [b for b in bars if b["node"] == "research"]
    assert len(research) >= 2
    research.sort(key=lambda b: b["start"])
    assert any(later["start"] < earlier["end"] for earlier, later in zip(research, research[1:], strict=False))
    cross = cli_ok(dashboard, "timeline", thread, "--json")
    cli_timeline = json.loads(cross.stdout)
    # The statistics dataframe draws on a canvas; its accessible table holds the same cells. The
    # grid first draws the table of all runs inside the rows it had sized for the latest run's
    # table, then grows: wait for the header, every superstep and every run's whole-run row.
    stats = page.get_by_test_id("stDataFrame").first.locator("table").first
    expect(stats).to_contain_text("speed-up", timeout=SLOW)
    expect(stats.locator("tr")).to_have_count(
        1 + len(cli_timeline["supersteps"]) + len(cli_timeline["runs"]), timeout=SLOW
    )
    rows = stats.evaluate("""table => Array.from(table.querySelectorAll('tr'), row =>
        Array.from(row.querySelectorAll('th, td'), cell => cell.innerText.trim()))""")
    header = rows[0]
    records = [dict(zip(header, row, strict=False)) for row in rows[1:]]
    research_step = next(r for r in records if r["nodes"] == "research")
    assert float(research_step["speed-up"]) > 1
    whole_runs = [float(r["speed-up"]) for r in records if r["step"] == "whole run" and r["speed-up"]]
    assert whole_runs and whole_runs[0] > 1
    cli_research = next(s for s in cli_timeline["supersteps"] if s["nodes"] == ["research"])
    assert float(research_step["speed-up"]) == round(cli_research["speedup"], 2)
