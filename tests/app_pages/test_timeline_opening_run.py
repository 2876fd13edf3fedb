"""The Timeline opens on the newest run with parallel work, and says which run it shows and why."""

from __future__ import annotations

from agents import runs
from agents.run_index import newest_parallel_run, opening_run, thread_runs
from tests.factories import insert_parallel_run, run_ids

PAGE = "app_pages/timeline.py"


def test_it_opens_on_the_newest_parallel_run_not_on_the_latest_resume(app, store, settings):
    runs.start_run(store, settings, "robot", {}, thread_id="hitl_demo")
    runs.resume_thread(store, settings, "hitl_demo", "yes")  # the latest run: a resume, one node after another
    insert_parallel_run(store, "hitl_demo")  # logged in 2025: an older run, three research calls side by side
    latest = run_ids(store)[-1]
    at = app(PAGE)
    assert not at.exception, at.exception
    assert at.selectbox(key="timeline-run-hitl_demo").value == "par-run" != latest
    assert any(c.value.startswith("Shown: run par-run, the thread's newest run with parallel work") for c in at.caption)
    at.selectbox(key="timeline-run-hitl_demo").set_value(latest).run()  # the others: one click away
    assert f"Shown: run {latest}, as picked." in [c.value for c in at.caption]


def test_a_first_visit_opens_the_thread_and_agent_of_the_newest_parallel_run(app, store, settings):
    runs.start_run(store, settings, "robot", {}, thread_id="older")
    insert_parallel_run(store, "older", run_id="fan-out")  # a start over would delete it: logged after the start
    runs.start_run(store, settings, "robot", {}, thread_id="newer")  # updated last, nothing in parallel
    assert newest_parallel_run(store) == ("robot", "older", "fan-out")
    at = app(PAGE)
    assert at.selectbox(key="timeline-thread").value == "older"
    assert at.selectbox(key="timeline-run-older").value == "fan-out"


def test_a_thread_without_parallel_work_opens_on_its_latest_run_and_says_so(app, store, settings):
    runs.start_run(store, settings, "robot", {})
    (run_id,) = run_ids(store)
    assert newest_parallel_run(store) is None
    assert opening_run(thread_runs(store, "hitl_demo")).run_id == run_id
    at = app(PAGE)
    assert any(c.value.startswith(f"Shown: run {run_id}, the thread's latest run; none") for c in at.caption)
