"""Strings of "What changed": a checkpoint against its parent or another, and a refund's requested vs executed."""

STRINGS: dict[str, tuple[str, str]] = {
    "diff.title": ("What changed", "바뀐 점"),
    "diff.help": (
        "The selected checkpoint's decoded state against another's, key by key: added, changed, removed, "
        "and lists that only grew as the items they gained (+1 message). Below: the writes that produced it.",
        "선택한 체크포인트의 디코딩한 상태를 다른 체크포인트와 키별로 비교합니다: 추가, 변경, 삭제, "
        "그리고 늘어나기만 한 목록은 더해진 항목으로(메시지 +1개) 보여 줍니다. 아래는 이 체크포인트를 만든 쓰기입니다.",
    ),
    "diff.compare_with": ("Compare with", "비교 대상"),
    "diff.parent": ("its parent", "부모"),
    "diff.between": ("{before} → {after} · {relation}", "{before} → {after} · {relation}"),
    "diff.side": ("{short} (step {step})", "{short} (스텝 {step})"),
    "diff.empty_state": ("empty state", "빈 상태"),
    "diff.relation.parent": ("parent → child", "부모 → 자식"),
    "diff.relation.ancestor": ("an older checkpoint of the same line", "같은 줄기의 더 오래된 체크포인트"),
    "diff.relation.descendant": ("a later checkpoint of the same line", "같은 줄기의 더 나중 체크포인트"),
    "diff.relation.same": ("the same checkpoint", "같은 체크포인트"),
    "diff.relation.branches": ("on another branch; they part at {ancestor}", "다른 가지. {ancestor}에서 갈라집니다"),
    "diff.relation.unrelated": ("no shared ancestor", "공통 조상 없음"),
    "diff.no_changes": ("No state key changed.", "바뀐 상태 키가 없습니다."),
    "diff.kind.added": ("added", "추가"),
    "diff.kind.changed": ("changed", "변경"),
    "diff.kind.removed": ("removed", "삭제"),
    "diff.appended.message": ("+{count} message", "메시지 +{count}개"),
    "diff.appended.messages": ("+{count} messages", "메시지 +{count}개"),
    "diff.appended.item": ("+{count} item", "항목 +{count}개"),
    "diff.appended.items": ("+{count} items", "항목 +{count}개"),
    "diff.writes": ("Writes that produced it", "이 체크포인트를 만든 쓰기"),
    # Why no write is listed, by the selected checkpoint's source (``dashboard.diff_view.no_writes_words``).
    "diff.writes.none.update": (
        "No writes are stored for this change (an update_state on a checkpoint whose node had already written "
        "keeps none of its own); the change above is what it did.",
        "이 변경에 저장된 쓰기가 없습니다(노드가 이미 쓴 체크포인트에 대한 update_state는 자기 쓰기를 남기지 않습니다). "
        "위의 변경이 그것이 한 일입니다.",
    ),
    "diff.writes.none.fork": (
        "None: this checkpoint is a copy (a re-run from an older checkpoint starts from one, and “Restore as "
        "head” makes one). No node wrote it, so it keeps no writes of its own; its state is the state of the "
        "checkpoint it copies.",
        "없음: 이 체크포인트는 복사본입니다(이전 체크포인트에서 다시 실행하면 복사본에서 시작하고, “헤드로 되돌리기”는 "
        "복사본을 만듭니다). 어떤 노드도 쓰지 않았으므로 자기 쓰기가 없으며, 상태는 복사한 체크포인트의 상태입니다.",
    ),
    "diff.writes.none.step": ("No writes are stored for this change.", "이 변경에 저장된 쓰기가 없습니다."),
    "diff.writes.more": (
        "… and {count} more (in the whole comparison below)",
        "… 그 밖에 {count}개 (아래 전체 비교에 있음)",
    ),
    "diff.writes.left_out": (
        "The writes of {count} older step(s) on the way are not listed.",
        "그 앞 단계 {count}개의 쓰기는 나열하지 않습니다.",
    ),
    "diff.whole": (
        "Whole comparison (JSON, as `diff --json` prints it)",
        "전체 비교 (JSON, `diff --json` 출력과 같음)",
    ),
    "diff.head": ("What changed at the head", "헤드에서 바뀐 점"),
    "diff.amount.title": ("Requested → executed", "요청 → 실행"),
    "diff.amount.changed": (
        "amount: {requested} → {executed} ({delta})",
        "금액: {requested} → {executed} ({delta})",
    ),
    "diff.amount.same": ("amount: {requested}, paid as requested", "금액: {requested}, 요청대로 지급"),
    "diff.amount.rejected": ("amount: {requested} → nothing paid (rejected)", "금액: {requested} → 지급 없음 (거절)"),
    "diff.amount.partial": (
        "amount: {requested} requested · {paid} paid so far · {waiting} waiting",
        "금액: 요청 {requested} · 지금까지 지급 {paid} · 대기 중 {waiting}",
    ),
    "diff.amount.pending": ("amount: {requested} → not executed yet", "금액: {requested} → 아직 실행되지 않음"),
}
