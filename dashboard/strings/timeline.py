"""Strings of the parallel-node timeline page."""

STRINGS: dict[str, tuple[str, str]] = {
    "nav.timeline": ("Timeline", "타임라인"),
    "timeline.title": ("Parallel-node timeline", "병렬 노드 타임라인"),
    "timeline.intro": (
        "What ran when, from the node log: one lane per node or task, so parallel tasks overlap. "
        "A run is one invoke/stream call; a resume after a human answer is a new run.",
        "노드 로그로 본 실행 순서와 시간입니다. 노드나 태스크마다 한 줄이므로 병렬 태스크는 겹쳐 보입니다. "
        "실행(run)은 invoke/stream 호출 한 번이며, 사람이 답한 뒤의 재개는 새 실행입니다.",
    ),
    "timeline.agent": ("Agent", "에이전트"),
    "timeline.thread": ("Thread", "스레드"),
    "timeline.run": ("Run", "실행(run)"),
    "timeline.all_runs": ("All runs of the thread", "스레드의 모든 실행"),
    "timeline.run_option": ("{run} · {start} UTC · {calls} calls", "{run} · {start} UTC · 호출 {calls}건"),
    "timeline.run_option_one": ("{run} · {start} UTC · {calls} call", "{run} · {start} UTC · 호출 {calls}건"),
    "timeline.no_threads": ("This agent has no threads yet.", "이 에이전트에는 아직 스레드가 없습니다."),
    "timeline.bad_thread": (
        "The thread in the link cannot be used: {error}",
        "링크의 스레드를 사용할 수 없습니다: {error}",
    ),
    "timeline.unknown_thread": (
        "The link names thread {thread}, which is not in the database.",
        "링크의 스레드 {thread:은/는} 데이터베이스에 없습니다.",
    ),
    "timeline.no_calls": ("No node calls are logged for this thread.", "이 스레드에는 기록된 노드 호출이 없습니다."),
    "timeline.figure_title": ("Thread {thread} · {runs}", "스레드 {thread} · {runs}"),
    "timeline.stats": ("Parallelism per superstep", "슈퍼스텝별 병렬성"),
    "timeline.stats.help": (
        "wall time: first start to last end · summed: the calls' own durations added up · "
        "speed-up: summed / wall · efficiency: speed-up / tasks (1.0 = fully overlapped). "
        "The last row of each run sums up the whole run; its efficiency is that of its parallel supersteps "
        "(more than one task) together, and its speed-up and efficiency are empty when it has none (its "
        "nodes cell says so).",
        "벽시계 시간: 첫 시작부터 마지막 끝까지 · 합계: 각 호출 시간의 합 · 속도 향상: 합계 / 벽시계 시간 · "
        "효율: 속도 향상 / 태스크 수 (1.0 = 완전히 겹침). 각 실행의 마지막 행은 실행 전체 요약이며, 그 효율은 "
        "병렬 슈퍼스텝(태스크 2개 이상)을 함께 본 효율입니다. 병렬 슈퍼스텝이 없으면 속도 향상과 효율이 "
        "비어 있습니다(노드 칸에 그렇게 적힘).",
    ),
    "timeline.run_total": ("whole run", "실행 전체"),
    "timeline.shown.parallel": (
        "Shown: run {run}, the thread's newest run with parallel work (a superstep of more than one call). "
        "Every run is in the run picker.",
        "표시 중: 실행 {run}. 이 스레드에서 병렬 작업(호출이 둘 이상인 슈퍼스텝)이 있었던 가장 최근 실행입니다. "
        "다른 실행은 실행 선택에서 고를 수 있습니다.",
    ),
    "timeline.shown.latest": (
        "Shown: run {run}, the thread's latest run; none of its runs did parallel work. "
        "Every run is in the run picker.",
        "표시 중: 실행 {run}. 이 스레드의 가장 최근 실행이며, 병렬 작업이 있었던 실행은 없습니다. "
        "다른 실행은 실행 선택에서 고를 수 있습니다.",
    ),
    "timeline.shown.picked": ("Shown: run {run}, as picked.", "표시 중: 고른 실행 {run}."),
    "timeline.shown.all": ("Shown: every run of the thread.", "표시 중: 이 스레드의 모든 실행."),
    "timeline.open_calls": (
        "{count} call(s) have no logged end (still running, or cut by a crash); "
        "they are drawn hatched up to the run's last logged moment.",
        "끝 시각이 기록되지 않은 호출이 {count}건 있습니다(실행 중이거나 중단됨). "
        "실행의 마지막 기록 시각까지 빗금으로 표시합니다.",
    ),
    "timeline.download": ("Download CSV", "CSV 다운로드"),
    "timeline.download.help": (
        "`START`/`END` lines; columns `timestamp`, `event`, `subagent_name`, `duration_sec` first "
        "(as `subagent_log.csv`), then `agent`, `thread`, `run`, `node`, `label`, `task`, `step`, `status`, `error`.",
        "`START`/`END` 행. 앞의 열은 `subagent_log.csv`와 같은 `timestamp`, `event`, `subagent_name`, "
        "`duration_sec`이고, 그 뒤에 `agent`, `thread`, `run`, `node`, `label`, `task`, `step`, `status`, `error`가 옵니다.",
    ),
    "timeline.compare": ("Compare two runs", "두 실행 비교"),
    "timeline.compare.intro": (
        "Pick run A and run B, from the same or different threads of this agent. Both panels "
        "measure time from their own first start on the same scale.",
        "이 에이전트의 같은 스레드 또는 다른 스레드에서 실행 A와 B를 고르세요. 두 패널은 각자의 "
        "첫 시작부터 같은 척도로 시간을 잽니다.",
    ),
    "timeline.compare.side": ("Run {side}", "실행 {side}"),
    "timeline.compare.need_runs": (
        "No runs are logged for this agent yet.",
        "이 에이전트에는 아직 기록된 실행이 없습니다.",
    ),
    "timeline.compare.listed": (
        "The pickers list the agent's latest {count} runs (and every run of the thread shown above).",
        "선택 목록에는 이 에이전트의 최근 실행 {count}개(와 위에 보이는 스레드의 모든 실행)가 있습니다.",
    ),
    "timeline.compare.more": ("Show {count} more runs", "실행 {count}개 더 보기"),
    "timeline.compare.figures": ("The two runs' figures", "두 실행의 수치"),
    "timeline.waits_band": ("{count} waits, {total} in all", "대기 {count}회, 모두 {total}"),
    "timeline.window": (
        "The chart draws the latest {drawn} of the {calls} calls; the tables and the CSV hold them all.",
        "차트는 호출 {calls}건 중 최근 {drawn}건을 그립니다. 표와 CSV에는 모두 들어 있습니다.",
    ),
    "timeline.draw_all": ("Draw all {calls} calls", "호출 {calls}건 모두 그리기"),
    "timeline.draw_all.help": (
        "A run this long takes the browser a while to draw call by call.",
        "이렇게 긴 실행은 호출마다 그리면 브라우저가 그리는 데 시간이 걸립니다.",
    ),
    "timeline.empty": ("no node calls logged", "기록된 노드 호출 없음"),
    "timeline.axis": ("time since first node start", "첫 노드 시작부터의 시간"),
    "timeline.axis.compressed": (" (waits over {duration} compressed)", " ({duration}보다 긴 대기는 압축)"),
    "timeline.legend": ("status", "상태"),
    "timeline.legend.open": ("no end logged", "끝 미기록"),
    "timeline.status.ok": ("ok", "정상"),
    "timeline.status.error": ("error", "오류"),
    "timeline.status.interrupted": ("interrupted", "인터럽트"),
    "timeline.status.running": ("running", "실행 중"),
    "timeline.step_band": ("step {step}", "스텝 {step}"),
    "timeline.steps_band": ("steps {first}–{last}", "스텝 {first}–{last}"),
    "timeline.wait.human_wait": ("human wait {duration}", "사람 대기 {duration}"),
    "timeline.wait.idle": ("idle {duration}", "유휴 {duration}"),
    "timeline.minutes": ("{minutes} min {seconds} s", "{minutes}분 {seconds}초"),
    # A time axis's tick labels: short, so that more of them fit; the seconds are zero-padded ("1m 03s").
    "timeline.tick.minutes": ("{minutes}m {seconds}s", "{minutes}분 {seconds}초"),
    "timeline.tick.hours": ("{hours}h {minutes}m {seconds}s", "{hours}시간 {minutes}분 {seconds}초"),
    "timeline.hours": ("{hours} h {minutes} min", "{hours}시간 {minutes}분"),
    "timeline.hover.label": ("label", "레이블"),
    "timeline.hover.start": ("start", "시작"),
    "timeline.hover.end": ("end", "끝"),
    "timeline.hover.duration": ("duration", "소요 시간"),
    "timeline.hover.step": ("step", "스텝"),
    "timeline.hover.run": ("run", "실행"),
    "timeline.hover.status": ("status", "상태"),
    "timeline.hover.error": ("error", "오류"),
    "timeline.hover.open_end": (
        "— (no end logged; drawn to {end}, the run's last logged time)",
        "— (끝 미기록, 실행의 마지막 기록 시각 {end}까지 표시)",
    ),
    "timeline.hover.so_far": (" so far", " (지금까지)"),
    "timeline.hover.widened": (" (drawn {width} wide so it can be seen)", " (보이도록 {width} 너비로 표시)"),
    "tcol.run": ("run", "실행"),
    "tcol.step": ("step", "스텝"),
    "tcol.tasks": ("tasks", "태스크"),
    "tcol.wall": ("wall time (s)", "벽시계 시간(초)"),
    "tcol.summed": ("summed task time (s)", "태스크 시간 합(초)"),
    "tcol.speedup": ("speed-up", "속도 향상"),
    "tcol.efficiency": ("efficiency", "효율"),
    "tcol.parallel_steps": ("parallel supersteps", "병렬 슈퍼스텝"),
    "tcol.parallel_efficiency": ("efficiency of parallel supersteps", "병렬 슈퍼스텝 효율"),
    "timeline.run_steps": ("supersteps: {steps} · parallel: {parallel}", "슈퍼스텝: {steps} · 병렬: {parallel}"),
    "timeline.run_meaning.parallel": (
        "whole run: speed-up = all task time / wall time; efficiency = of the parallel supersteps together",
        "실행 전체: 속도 향상 = 모든 태스크 시간 / 벽시계 시간, 효율 = 병렬 슈퍼스텝을 함께 본 효율",
    ),
    "timeline.run_meaning.sequential": (
        "whole run: nothing ran in parallel, so no speed-up or efficiency; nodes were busy {busy}% of the wall time",
        "실행 전체: 병렬로 실행된 것이 없어 속도 향상과 효율이 없습니다. 노드가 벽시계 시간의 {busy}% 동안 실행됨",
    ),
    "tcol.nodes": ("nodes", "노드"),
    "timeline.no_gain": ("no gain", "이득 없음"),
    "timeline.no_gain.note": (
        "Step {step}: speed-up {speedup} means fewer than one of its {tasks} calls ran at a time on average: "
        "they did not overlap, so running them in parallel gained nothing.",
        "스텝 {step}: 속도 향상 {speedup:은/는} 호출 {tasks}개 중 동시에 실행된 것이 평균 1개 미만이라는 뜻입니다. "
        "호출이 겹치지 않아 병렬 실행으로 얻은 것이 없습니다.",
    ),
    "timeline.no_gain.note_short": (
        "Step {step}: speed-up {speedup} means fewer than one of its {tasks} calls ran at a time on average: "
        "at {ms} ms each, a call ended about when the next one started, too short to overlap.",
        "스텝 {step}: 속도 향상 {speedup:은/는} 호출 {tasks}개 중 동시에 실행된 것이 평균 1개 미만이라는 뜻입니다. "
        "호출 하나가 평균 {ms}ms로 너무 짧아, 다음 호출이 시작될 즈음 이미 끝나 겹치지 못했습니다.",
    ),
    "tcol.open": ("no end logged", "끝 미기록"),
    "tcol.supersteps": ("supersteps", "슈퍼스텝"),
    "tcol.errors": ("errors", "오류"),
    "tcol.interrupted": ("interrupted", "인터럽트"),
    "tcol.started": ("started (UTC)", "시작(UTC)"),
    "tcol.thread": ("thread", "스레드"),
    "tcol.figure": ("figure", "항목"),
}
