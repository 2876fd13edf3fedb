"""Strings of the settings an admin sees (dashboard/settings_view.py)."""

STRINGS: dict[str, tuple[str, str]] = {
    "settings.title": ("Settings", "설정"),
    "settings.hidden": ("Settings are not shown: {reason}", "설정이 표시되지 않습니다: {reason}"),
    "settings.col.setting": ("setting", "설정"),
    "settings.col.value": ("value", "값"),
    "settings.none": ("No settings.", "설정이 없습니다."),
    "settings.database": ("database (HITL_DB)", "데이터베이스 (HITL_DB)"),
    "settings.sign_in": ("sign-in", "로그인"),
    "settings.sign_in.on": (
        "configured ([auth] in .streamlit/secrets.toml)",
        "설정됨 (.streamlit/secrets.toml의 [auth])",
    ),
    "settings.sign_in.off": ("not configured: local mode", "설정되지 않음: 로컬 모드"),
    "settings.roles": ("roles file (HITL_ROLES_FILE)", "역할 파일 (HITL_ROLES_FILE)"),
    "settings.roles_file": (
        "{path}: {users} people, {tokens} API tokens",
        "{path}: 사람 {users}명, HTTP 접근 토큰 {tokens}개",
    ),
    "settings.no_roles_file": ("none", "없음"),
    "settings.api_token": ("API token (HITL_API_TOKEN)", "HTTP 접근 토큰 (HITL_API_TOKEN)"),
    "settings.set": ("set (its value is never shown)", "설정됨 (값은 표시하지 않습니다)"),
    "settings.not_set": ("not set", "설정되지 않음"),
    "settings.cli_language": ("command-line language (HITL_LANG)", "명령줄 언어 (HITL_LANG)"),
    "settings.language.en": ("English (en)", "영어 (en)"),
    "settings.language.ko": ("Korean (ko)", "한국어 (ko)"),
    "settings.on": ("on", "켜짐"),
    "settings.off": ("off", "꺼짐"),
    # each agent's typed settings: settings.<agent>.<field>[.<field>]
    "settings.refund.policy": ("routing policy (HITL_REFUND_POLICY)", "경로 정책 (HITL_REFUND_POLICY)"),
    "settings.lecture.threshold": ("gate pass mark (HITL_GATE_THRESHOLD)", "통과 점수 (HITL_GATE_THRESHOLD)"),
    "settings.lecture.max_rounds": ("most drafts per run (HITL_MAX_ROUNDS)", "실행당 최대 초안 수 (HITL_MAX_ROUNDS)"),
    "settings.lecture.plan_review": ("plan review (HITL_PLAN_REVIEW)", "계획 검토 (HITL_PLAN_REVIEW)"),
    "settings.lecture.services.gemini_key": ("Gemini key", "Gemini 키"),
    "settings.lecture.services.gemini_models": ("Gemini models", "Gemini 모델"),
    "settings.lecture.services.model_latency": ("embedded model's latency (s)", "내장 모델 지연 시간(초)"),
    "settings.lecture.services.tavily_key": ("Tavily key (web research)", "Tavily 키 (웹 자료 조사)"),
}
