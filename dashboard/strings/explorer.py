"""Strings of the checkpoint explorer page."""

STRINGS: dict[str, tuple[str, str]] = {
    "nav.explorer": ("Checkpoint explorer", "체크포인트 탐색기"),
    "explorer.title": ("Checkpoint explorer", "체크포인트 탐색기"),
    "explorer.intro": (
        "Every checkpoint points at its parent, so a thread is a tree: a straight line while the graph runs, "
        "with a branch wherever update_state or a re-run from an older checkpoint forked it. "
        "Click a point (or pick it below) to read its decoded state, metadata and writes.",
        "모든 체크포인트는 부모를 가리키므로 스레드는 트리입니다. 그래프가 실행되는 동안은 직선이고, "
        "update_state나 예전 체크포인트에서의 재실행으로 갈라진 곳마다 가지가 생깁니다. "
        "점을 클릭하거나 아래에서 고르면 디코딩한 상태, 메타데이터, 쓰기를 볼 수 있습니다.",
    ),
    "explorer.root_only": (
        "Only the root namespace is drawn: checkpoints of subgraphs (non-empty checkpoint_ns) are left out.",
        "루트 네임스페이스만 그립니다. 서브그래프의 체크포인트(checkpoint_ns가 비어 있지 않은 것)는 제외됩니다.",
    ),
    "explorer.agent": ("Agent", "에이전트"),
    "explorer.thread": ("Thread", "스레드"),
    "explorer.empty_db": (
        "The database has no threads yet. Run an agent first (for example the approval robot).",
        "데이터베이스에 아직 스레드가 없습니다. 먼저 에이전트를 실행하세요 (예: 승인 로봇).",
    ),
    "explorer.no_threads_for_agent": ("This agent has no threads yet.", "이 에이전트에는 아직 스레드가 없습니다."),
    "explorer.unknown_thread": (
        "There is no thread named {thread} in the database.",
        "데이터베이스에 {thread:이라는/라는} 스레드가 없습니다.",
    ),
    "explorer.none_open": (
        "No thread is open: pick one above, or open the one the picker shows.",
        "열린 스레드가 없습니다. 위에서 스레드를 고르거나, 선택 상자에 보이는 스레드를 여세요.",
    ),
    "explorer.open": ("Open {thread}", "{thread} 열기"),
    "explorer.followed_head": (
        "The thread moved on since the page was drawn: its new head {head} is selected in place of {before}.",
        "페이지를 그린 뒤 스레드가 바뀌었습니다. {before} 대신 새 헤드 {head:을/를} 선택했습니다.",
    ),
    "explorer.bad_thread": (
        "The link names an invalid thread id: {error}",
        "링크의 스레드 ID가 올바르지 않습니다: {error}",
    ),
    "explorer.summary": (
        "{count} checkpoints · {lanes} lane(s) · head {head}",
        "체크포인트 {count}개 · 레인 {lanes}개 · 헤드 {head}",
    ),
    "explorer.orphans": (
        "{count} checkpoint(s) have a parent that is missing from the thread; each starts a lane.",
        "체크포인트 {count}개의 부모가 스레드에 없습니다. 각각 새 레인에서 시작합니다.",
    ),
    "explorer.checkpoint": ("Checkpoint", "체크포인트"),
    "explorer.option": ("step {step} · {source} · {short}{flags}", "스텝 {step} · {source} · {short}{flags}"),
    "explorer.flag.head": ("head", "헤드"),
    "explorer.document": ("`{name}` as Markdown ({length} characters)", "마크다운으로 보기: `{name}` ({length}자)"),
    "explorer.document.note": (
        "Long text, not in the view above: {names}; read it as Markdown below.",
        "위 보기에 넣지 않은 긴 텍스트: {names}. 아래에서 마크다운으로 읽으세요.",
    ),
    "explorer.flag.waiting": ("waiting", "대기 중"),
    "explorer.gone": (
        "This checkpoint is no longer in the database (deleted meanwhile).",
        "이 체크포인트는 더 이상 데이터베이스에 없습니다 (그사이 삭제됨).",
    ),
    "explorer.selected": ("Checkpoint {checkpoint}", "체크포인트 {checkpoint}"),
    "explorer.ids": (
        "id `{checkpoint}` · parent `{parent}` · next `{next}`",
        "ID `{checkpoint}` · 부모 `{parent}` · 다음 `{next}`",
    ),
    "explorer.state": ("State (decoded)", "상태 (디코딩됨)"),
    "explorer.metadata": ("Metadata", "메타데이터"),
    "explorer.writes": ("Writes stored against this checkpoint", "이 체크포인트에 저장된 쓰기"),
    "explorer.writes.help": (
        "Writes lead from this checkpoint to its child: node outputs, `branch:to:*` routing, "
        "`__interrupt__` (a question waiting for a human) and `__resume__` (the answer).",
        "쓰기는 이 체크포인트에서 자식으로 이어집니다: 노드 출력, `branch:to:*` 라우팅, "
        "`__interrupt__`(사람을 기다리는 질문), `__resume__`(답).",
    ),
    "explorer.no_writes": (
        "No writes: nothing has run from this checkpoint yet.",
        "쓰기가 없습니다: 이 체크포인트에서 아직 아무것도 실행되지 않았습니다.",
    ),
    "explorer.actions": ("From this checkpoint", "이 체크포인트에서"),
    "explorer.actions.help": (
        "Both actions add a new branch; every existing checkpoint stays as it is.",
        "두 작업 모두 새 가지를 추가합니다. 기존 체크포인트는 그대로 남습니다.",
    ),
    "explorer.rerun": ("Re-run from here", "여기서 다시 실행"),
    "explorer.restore": ("Restore as head", "헤드로 되돌리기"),
    "explorer.restore.help": (
        "Copies this checkpoint as the thread's new head (LangGraph's __copy__ update); the later branch stays in the history.",
        "이 체크포인트를 스레드의 새 헤드로 복사합니다 (LangGraph의 __copy__ 업데이트). 이후 분기는 기록에 남습니다.",
    ),
    "explorer.restore.done": (
        "Restored {checkpoint} as the head of {thread}: {status}.",
        "{checkpoint:을/를} {thread}의 헤드로 되돌렸습니다: {status}.",
    ),
    "explorer.back_to": (
        'The step failed; the earlier head {checkpoint} is selected. "Restore as head" brings it back.',
        '단계가 실패했습니다. 이전 헤드 {checkpoint:이/가} 선택되어 있습니다. "헤드로 되돌리기"로 되돌릴 수 있습니다.',
    ),
    "explorer.rerun.help": (
        "Runs the graph again from this checkpoint with no new input (LangGraph stores a fork).",
        "새 입력 없이 이 체크포인트에서 그래프를 다시 실행합니다 (LangGraph가 포크를 저장합니다).",
    ),
    "explorer.rerun.done": (
        "Re-ran {thread} from {checkpoint}: {status}.",
        "{checkpoint}에서 {thread:을/를} 다시 실행했습니다: {status}.",
    ),
    "explorer.fork.title": ("Fork here with edited state", "상태를 고쳐서 여기서 포크"),
    "explorer.fork.values": ("State values to write (JSON object)", "쓸 상태 값 (JSON 객체)"),
    "explorer.fork.values.help": ("Only these keys can be changed: {keys}.", "바꿀 수 있는 키: {keys}."),
    "explorer.fork.as_node": ("as node", "as_node (기록할 노드)"),
    "explorer.fork.continue": ("Continue the run from the fork", "포크에서 실행 계속"),
    "explorer.fork.submit": ("Fork", "포크"),
    "explorer.fork.done": (
        "Forked {thread} at {checkpoint}: {status}.",
        "{checkpoint}에서 {thread:을/를} 포크했습니다: {status}.",
    ),
    "explorer.fig.head": ("head", "헤드"),
    "explorer.fig.waiting": ("waiting for a human", "사람을 기다림"),
    "explorer.fig.selected": ("selected", "선택됨"),
    "explorer.fig.links": ("parent link", "부모 연결"),
    "explorer.fig.main": ("main", "본선"),
    "explorer.fig.branch": ("branch {n}", "가지 {n}"),
    "explorer.fig.step": ("step", "스텝"),
    "explorer.fig.lane": ("lane", "레인"),
    "explorer.fig.writers": ("writers", "쓴 노드"),
    "explorer.fig.next": ("next", "다음"),
    "explorer.fig.orphan": ("parent missing", "부모 없음"),
    "explorer.fig.empty": ("No checkpoints in this thread yet.", "이 스레드에는 아직 체크포인트가 없습니다."),
    "explorer.fig.hidden": ("checkpoints not drawn", "그리지 않은 체크포인트"),
    "explorer.fig.hidden_count": ("{n} not drawn", "{n}개 생략"),
    "explorer.fig.source.input": ("input", "입력"),
    "explorer.fig.source.loop": ("loop", "루프"),
    "explorer.fig.source.update": ("update", "업데이트"),
    "explorer.fig.source.fork": ("fork", "포크"),
    "explorer.show_all": ("Show all {count} checkpoints", "체크포인트 {count}개 모두 보기"),
    "explorer.show_all.help": (
        "Off: the graph draws a window around the selected checkpoint, which reads and draws fast on a "
        "long thread. On: every checkpoint of the thread.",
        "끄면 선택한 체크포인트 주변의 창만 그려서 긴 스레드도 빨리 읽고 그립니다. 켜면 스레드의 모든 체크포인트를 그립니다.",
    ),
    "explorer.window": (
        "Drawn: {shown} of {count} checkpoints, those nearest the selected one along the links, with the head, "
        "the first checkpoint and the nearest fork points. A dotted link passes over checkpoints not drawn; "
        "select a checkpoint to move the window.",
        "그린 체크포인트: {count}개 중 {shown}개 — 연결을 따라 선택한 체크포인트에 가장 가까운 것들과 헤드, "
        "첫 체크포인트, 가장 가까운 분기점입니다. 점선 연결은 그리지 않은 체크포인트를 건너뜁니다. "
        "체크포인트를 선택하면 창이 옮겨집니다.",
    ),
    "explorer.figure.help": (
        "Drag to pan, scroll to zoom, double-click to see everything drawn.",
        "끌어서 이동하고, 스크롤로 확대·축소하며, 두 번 클릭하면 그린 것 전체를 봅니다.",
    ),
    "explorer.state.help": (
        "Nested values are collapsed: click one to open it. The fork form below starts from the keys "
        "that can be changed.",
        "중첩된 값은 접혀 있습니다: 클릭하면 펼쳐집니다. 아래 포크 양식은 바꿀 수 있는 키로 시작합니다.",
    ),
}
