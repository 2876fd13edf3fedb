"""AppTest for the Timeline page: empty log, one run, several runs (latest by default), compare, ?thread=, Korean."""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest

from agents import runs
from dashboard.safe_markdown import escape_markdown
from dashboard.timeline_figure import MAX_DRAWN_CALLS
from tests.conftest import APP_FILE
from tests.factories import insert_long_run, insert_parallel_run, run_ids

PAGE = "app_pages/timeline.py"


def _stats(at):
    """The statistics table (the first dataframe) as plain records."""
    return at.dataframe[0].value.to_dict("records")


def test_empty_log_explains_instead_of_failing(app):
    at = app(PAGE)
    assert not at.exception
    assert [i.value for i in at.info] == ["This agent has no threads yet.", "No runs are logged for this agent yet."]
    assert len(at.dataframe) == 0


def test_one_run_shows_figure_table_and_download(app, store, settings):
    runs.start_run(store, settings, "robot", {})
    (run_id,) = run_ids(store)
    at = app(PAGE)
    assert not at.exception
    assert at.selectbox(key="timeline-thread").value == "hitl_demo"
    run_select = at.selectbox(key="timeline-run-hitl_demo")
    assert run_select.options[0] == "All runs of the thread"
    assert run_select.options[1].startswith(f"{run_id} · ") and run_select.options[1].endswith(" · 2 calls")
    rows = _stats(at)
    assert [(r["run"], r["step"], r["nodes"]) for r in rows] == [
        (run_id, "1", "propose"),
        (run_id, "2", "approval"),
        (run_id, "whole run", "supersteps: 2 · parallel: 0"),  # its meaning: test_timeline_whole_run.py
    ]
    # What the whole-run figures mean is under the table, as one sentence.
    definition = "whole run: nothing ran in parallel, so no speed-up or efficiency; nodes were busy"
    assert [c for c in at.caption if c.value.startswith(escape_markdown(definition))]
    assert rows[-1]["tasks"] == 2
    assert len(at.get("plotly_chart")) == 2  # the thread's timeline and the comparison
    assert len(at.get("download_button")) == 1


def test_several_runs_and_picking_one(app, store, settings):
    # All runs are now one click away rather than the default (the latest run is).
    runs.start_run(store, settings, "robot", {})
    runs.resume_thread(store, settings, "hitl_demo", "yes")
    first, second = run_ids(store)
    at = app(PAGE)
    at.selectbox(key="timeline-run-hitl_demo").set_value("__all_runs__").run()
    whole_runs = [r for r in _stats(at) if r["step"] == "whole run"]
    assert [r["run"] for r in whole_runs] == [first, second]
    at.selectbox(key="timeline-run-hitl_demo").set_value(second).run()
    rows = _stats(at)
    assert {r["run"] for r in rows} == {second}
    assert [r["nodes"] for r in rows[:2]] == ["approval", "execute"]


def test_the_latest_run_is_shown_by_default_and_all_runs_is_the_first_option(app, store, settings):
    runs.start_run(store, settings, "robot", {})
    runs.resume_thread(store, settings, "hitl_demo", "yes")
    first, second = run_ids(store)
    at = app(PAGE)
    run_select = at.selectbox(key="timeline-run-hitl_demo")
    assert run_select.value == second
    assert run_select.options[0] == "All runs of the thread"
    assert {r["run"] for r in _stats(at)} == {second}


def test_the_sessions_run_choice_survives_a_rerun(app, store, settings):
    runs.start_run(store, settings, "robot", {})
    runs.resume_thread(store, settings, "hitl_demo", "yes")
    first, _ = run_ids(store)
    at = app(PAGE)
    at.selectbox(key="timeline-run-hitl_demo").set_value(first).run()
    at.run()
    assert at.selectbox(key="timeline-run-hitl_demo").value == first
    assert {r["run"] for r in _stats(at)} == {first}


def test_parallel_superstep_shows_speedup_and_efficiency(app, store, settings):
    runs.start_run(store, settings, "robot", {})
    insert_parallel_run(store, "hitl_demo")
    at = app(PAGE)
    at.selectbox(key="timeline-run-hitl_demo").set_value("par-run").run()
    rows = {r["step"]: r for r in _stats(at)}
    research = rows["2"]
    assert (research["tasks"], research["wall time (s)"], research["summed task time (s)"]) == (3, 1.0, 3.0)
    assert (research["speed-up"], research["efficiency"]) == (3.0, 1.0)
    whole = rows["whole run"]
    assert (whole["tasks"], whole["wall time (s)"], whole["summed task time (s)"]) == (4, 1.5, 3.5)
    assert whole["speed-up"] == round(3.5 / 1.5, 2)


def test_compare_two_runs_from_different_threads(app, store, settings):
    runs.start_run(store, settings, "robot", {})
    runs.start_run(store, settings, "robot", {}, thread_id="other")
    insert_parallel_run(store, "other")
    at = app(PAGE)
    at.selectbox(key="timeline-compare-thread-A").set_value("hitl_demo").run()
    at.selectbox(key="timeline-compare-thread-B").set_value("other").run()
    at.selectbox(key="timeline-compare-run-B").set_value("par-run").run()
    assert not at.exception
    figures = {row["figure"]: (row["A"], row["B"]) for row in at.dataframe[-1].value.to_dict("records")}
    assert [figures[name][0] for name in ("thread", "tasks", "interrupted")] == ["hitl_demo", "2", "1"]
    assert [figures[name][1] for name in ("thread", "run", "tasks")] == ["other", "par-run", "4"]


def test_thread_query_parameter_preselects_agent_and_thread(store, settings):
    runs.start_run(store, settings, "robot", {})
    runs.start_run(store, settings, "robot", {}, thread_id="other")
    runs.start_run(store, settings, "robot", {}, thread_id="newest")
    at = AppTest.from_file(APP_FILE, default_timeout=60)
    at.query_params["thread"] = "other"
    at.run()
    at.switch_page(PAGE).run()
    assert at.selectbox(key="timeline-thread").value == "other"
    assert {r["run"] for r in _stats(at)} == set(run_ids(store, "other"))


def test_unknown_thread_in_the_link_is_reported(store, settings):
    runs.start_run(store, settings, "robot", {})
    at = AppTest.from_file(APP_FILE, default_timeout=60)
    at.query_params["thread"] = "missing"
    at.run()
    at.switch_page(PAGE).run()
    assert any("missing" in w.value for w in at.warning)
    assert at.selectbox(key="timeline-thread").value == "hitl_demo"


def test_korean_labels(app, store, settings):
    runs.start_run(store, settings, "robot", {})
    at = app(PAGE)
    at.selectbox(key="lang").select("ko").run()
    assert [x.value for x in at.title] == ["병렬 노드 타임라인"]
    assert "실행 전체" in [r["스텝"] for r in _stats(at)]
    assert at.selectbox(key="timeline-run-hitl_demo").options[0] == "스레드의 모든 실행"


def _chart(at, index: int = 0) -> dict:
    return json.loads(at.get("plotly_chart")[index].proto.spec)


def test_korean_chart_axis_steps_legend_and_hover(app, store, settings):
    runs.start_run(store, settings, "robot", {})  # pauses at approval: an interrupted call
    at = app(PAGE)
    at.selectbox(key="lang").select("ko").run()
    layout, traces = _chart(at)["layout"], _chart(at)["data"]
    assert layout["xaxis"]["title"]["text"] == "첫 노드 시작부터의 시간"
    assert layout["legend"]["title"]["text"] == "상태"
    assert {trace["name"] for trace in traces} == {"정상", "인터럽트"}
    notes = [note["text"] for note in layout["annotations"]]  # a band too narrow to label has none
    assert notes and all(text.startswith("스텝 ") for text in notes)
    hover = traces[0]["hovertemplate"]
    for word in ("레이블", "시작", "끝", "소요 시간", "스텝", "상태"):
        assert f"{word}: %{{customdata" in hover
    assert traces[-1]["customdata"][0][7] == "인터럽트"


def test_a_long_run_draws_its_latest_calls_and_every_call_is_one_click_away(app, store, settings):
    runs.start_run(store, settings, "robot", {})
    insert_long_run(store, MAX_DRAWN_CALLS + 200)
    at = app(PAGE)
    assert at.selectbox(key="timeline-run-hitl_demo").value == "long"
    assert sum(len(trace["y"]) for trace in _chart(at)["data"]) == MAX_DRAWN_CALLS
    assert f"latest {MAX_DRAWN_CALLS:,} of the {MAX_DRAWN_CALLS + 200:,} calls" in " ".join(c.value for c in at.caption)
    assert _stats(at)[-1]["tasks"] == MAX_DRAWN_CALLS + 200  # the tables count every call

    at.checkbox(key="timeline-draw-all").check().run()

    assert not at.exception
    assert sum(len(trace["y"]) for trace in _chart(at)["data"]) == MAX_DRAWN_CALLS + 200
