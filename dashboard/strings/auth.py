"""Strings of sign-in, sign-out, the identity badge and what a role may do."""

STRINGS: dict[str, tuple[str, str]] = {
    "auth.sign_in.title": ("Sign in", "로그인"),
    "auth.sign_in.intro": (
        "This dashboard decides payouts: sign in with your organisation's account to continue.",
        "이 대시보드는 지급을 결정합니다. 계속하려면 조직 계정으로 로그인하세요.",
    ),
    "auth.sign_in.button": ("Sign in", "로그인"),
    "auth.misconfigured": (
        "Sign-in is not configured correctly ([auth] in .streamlit/secrets.toml): {error}",
        "로그인 설정이 올바르지 않습니다(.streamlit/secrets.toml의 [auth]): {error}",
    ),
    "auth.sign_out": ("Sign out", "로그아웃"),
    "auth.local_badge": ("local mode — not signed in", "로컬 모드 — 로그인하지 않음"),
    "auth.local_help": (
        "No sign-in is configured (`[auth]` in `.streamlit/secrets.toml`), so the dashboard serves this "
        "machine only, with one local operator who may do everything; approvers type their names.",
        "로그인이 설정되지 않아(`.streamlit/secrets.toml`의 `[auth]`) 대시보드는 이 컴퓨터에만 제공되며, "
        "모든 권한을 가진 로컬 운영자 한 명으로 동작합니다. 승인자는 이름을 직접 입력합니다.",
    ),
    "auth.signed_in_as": ("Signed in as **{name}** ({email}) · {role}", "**{name}**({email}) 계정으로 로그인 · {role}"),
    "auth.limit": ("Approval limit: {limit} KRW", "승인 한도: {limit}원"),
    "auth.role.viewer": ("viewer", "열람자"),
    "auth.role.approver": ("approver", "승인자"),
    "auth.role.senior_approver": ("senior approver", "선임 승인자"),
    "auth.role.admin": ("admin", "관리자"),
    "auth.col.approver_role": ("approver's role", "승인자 역할"),
    "auth.col.requested_by": ("requested by", "요청자"),
    "auth.no_roles": (
        "No roles file (.streamlit/roles.toml or HITL_ROLES_FILE): everyone signed in is a viewer.",
        "역할 파일(.streamlit/roles.toml 또는 HITL_ROLES_FILE)이 없어 로그인한 모든 사람이 열람자입니다.",
    ),
    "auth.exposed": (
        "The dashboard listens on {address}, beyond this machine, and no sign-in is configured. "
        "Configure [auth] in .streamlit/secrets.toml (see the README, Sign-in and roles), or serve it on "
        "localhost only.",
        "대시보드가 이 컴퓨터 밖({address})에서 접속을 받는데 로그인이 설정되어 있지 않습니다. "
        ".streamlit/secrets.toml에 [auth]를 설정하거나(README의 로그인과 역할 참고) localhost에서만 제공하세요.",
    ),
    "auth.cannot_act": ("Not for your role: {reason}", "현재 역할로는 할 수 없습니다: {reason}"),
    "auth.admin_only": (
        "Changing a thread's state, deleting, forking, re-running and restoring threads is for admins.",
        "스레드 상태 변경, 삭제, 포크, 재실행, 복원은 관리자만 할 수 있습니다.",
    ),
    "auth.approver_is_you": (
        "The decision is recorded as yours: {name} ({email}).",
        "결정은 {name}({email}) 명의로 기록됩니다.",
    ),
}
