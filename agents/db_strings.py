"""Refusals of the database: a file that is not one, read-only, busy, damaged, from a newer release, unreachable.

``{key: (english, korean)}``, merged into :data:`agents.strings.STRINGS`, so the CLI (``--lang ko``) and a
Korean page say them in the reader's language. A path, a URL and the system's own words (an ``OSError``'s,
SQLite's, the PostgreSQL driver's) stay as they come.
"""

STRINGS: dict[str, tuple[str, str]] = {
    "error.db.not_database": ("{path} is not a SQLite database", "{path:은/는} SQLite 데이터베이스가 아닙니다"),
    "error.db.read_only": ("{path} is read-only", "{path:은/는} 읽기 전용입니다"),
    "error.db.read_only_change": (
        "{path} is read-only; nothing can be changed",
        "{path:은/는} 읽기 전용이라 아무것도 바꿀 수 없습니다",
    ),
    "error.db.busy": (
        "{path} is busy: another process held its write lock for too long; nothing was changed, try again",
        "{path:은/는} 사용 중입니다. 다른 프로세스가 쓰기 잠금을 너무 오래 잡고 있었습니다. 아무것도 바뀌지 "
        "않았으니 다시 시도하세요",
    ),
    "error.db.malformed": (
        "{path} is damaged ({detail}); restore it from a backup (sqlite3's .recover can save what is left)",
        "{path:은/는} 손상되었습니다({detail}). 백업에서 복원하세요(sqlite3의 .recover로 남은 것을 살릴 수 있습니다)",
    ),
    "error.db.unusable": ("{path} cannot be used: {detail}", "{path:을/를} 사용할 수 없습니다: {detail}"),
    "error.db.cannot_open": ("{path} cannot be opened: {detail}", "{path:을/를} 열 수 없습니다: {detail}"),
    "error.db.folder_not_writable": (
        "{path} cannot be opened: its folder {folder} cannot be written, and SQLite needs to create its -wal and "
        "-shm files beside it; make the folder writable, or move the file to one that is",
        "{path:을/를} 열 수 없습니다. 폴더 {folder}에 쓸 수 없는데, SQLite는 그 옆에 -wal, -shm 파일을 만들어야 "
        "합니다. 폴더를 쓸 수 있게 하거나 파일을 쓸 수 있는 폴더로 옮기세요",
    ),
    "error.db.damaged": (
        "{location}: this database is damaged or was written by something else: {detail}",
        "{location}: 이 데이터베이스는 손상되었거나 다른 프로그램이 쓴 것입니다: {detail}",
    ),
    "error.db.newer": (
        "{location} was written by a newer release (schema {found}, this release reads up to {version}); "
        "refusing to touch it",
        "{location:은/는} 더 새로운 릴리스가 쓴 것입니다(스키마 {found}, 이 릴리스는 {version}까지 읽습니다). "
        "건드리지 않습니다",
    ),
    "error.db.earlier_read_only": (
        "{path} was set up by an earlier release and cannot be written, so its tables cannot be brought up to date; "
        "open it once with write access",
        "{path:은/는} 이전 릴리스가 설정했고 쓸 수 없어서 테이블을 최신으로 맞출 수 없습니다. 쓰기 권한으로 한 번 "
        "여세요",
    ),
    # A PostgreSQL refusal (``agents.db_postgres._refusals``): in a run, the steps before it are saved, so they
    # do not say that nothing was changed.
    "error.db.postgres_read_only": (
        "{path} takes no writes (a standby server, or default_transaction_read_only is on)",
        "{path:은/는} 쓰기를 받지 않습니다(대기 서버이거나 default_transaction_read_only가 켜져 있음)",
    ),
    "error.db.postgres_privilege": (
        "{path}: the role lacks the privilege this takes ({detail})",
        "{path}: 역할에 이 일에 필요한 권한이 없습니다({detail})",
    ),
    "error.db.postgres_unreachable": (
        "{path} cannot be reached now ({detail}); try again once the server answers",
        "지금 {path}에 닿을 수 없습니다({detail}). 서버가 응답하면 다시 시도하세요",
    ),
    "error.db.postgres_unusable": (
        "HITL_DB ({path}) cannot be used: {kind}: {detail}",
        "HITL_DB({path})를 사용할 수 없습니다: {kind}: {detail}",
    ),
}
