"""Strings of the paged, searchable tables (:mod:`dashboard.tables`)."""

STRINGS: dict[str, tuple[str, str]] = {
    "table.search": ("Search", "검색"),
    "table.search.help": (
        "Shows the rows whose text contains this (thread id, agent, status, case, customer…), ignoring case.",
        "이 글자가 들어 있는 행만 보여 줍니다(스레드 ID, 에이전트, 상태, 건 번호, 고객 등, 대소문자 무시).",
    ),
    "table.page": ("Page", "페이지"),
    "table.rows": ("Rows {first}–{last} of {total}", "전체 {total}행 중 {first}–{last}행"),
    "table.rows_matching": (
        "Rows {first}–{last} of {total} matching “{query}” ({all} in all)",
        "“{query}”에 맞는 {total}행 중 {first}–{last}행 (전체 {all}행)",
    ),
    "table.no_match": ("No row matches “{query}”.", "“{query}”에 맞는 행이 없습니다."),
    "table.find": ("Find: {what}", "찾기: {what}"),
    "table.find_more": (
        "The list offers the first {shown} of {total} matches; type more to narrow it.",
        "맞는 항목 {total}개 중 처음 {shown}개만 목록에 있습니다. 더 입력해 좁혀 보세요.",
    ),
    "col.open": ("open", "열기"),
    "col.action": ("what resolves it", "해결 방법"),
    # A batch's item the checks refused, in the batch's results table: the word its summary counts it by.
}
