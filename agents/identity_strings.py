"""Strings of a permission refusal (``agents.identity``, ``agents.errors.PermissionDenied``), ``{key: (en, ko)}``.

Each is the template of an :class:`agents.texts.Text`, so a refusal is shown in the reader's language on every
path (the pages, the command line, a batch's results, the HTTP API); ``agents.strings`` merges them into the
agents layer's catalogue. An agent words its own actions and case rules in its own strings module.
"""

STRINGS: dict[str, tuple[str, str]] = {
    # ``PermissionDenied``: "not allowed: " and why.
    "error.not_allowed": ("not allowed: {reason}", "허용되지 않음: {reason}"),
    # Who is too low a role for the action: "kim@example.com is a viewer; starting a run needs an approver or above".
    "denied.role": (
        "{who} is {role}; {action} needs {needed} or above",
        "{who}의 역할은 {role}입니다. {action}에는 {needed} 이상의 역할이 필요합니다",
    ),
    "denied.role.viewer": ("a viewer", "열람자"),
    "denied.role.approver": ("an approver", "승인자"),
    "denied.role.senior_approver": ("a senior approver", "선임 승인자"),
    "denied.role.admin": ("an admin", "관리자"),
    # The actions of ``agents.identity`` in words, as a refusal names them.
    "denied.action.start_run": ("starting a run", "실행 시작"),
    "denied.action.answer": ("answering a question", "질문에 답하기"),
    "denied.action.continue": ("continuing a thread", "스레드 실행 계속"),
    "denied.action.update_state": ("changing a thread's state", "스레드 상태 변경"),
    "denied.action.fork": ("forking a thread", "스레드 포크"),
    "denied.action.rerun": ("re-running from a checkpoint", "체크포인트에서 재실행"),
    "denied.action.restore": ("restoring a checkpoint", "체크포인트 복원"),
    "denied.action.delete_thread": ("deleting a thread", "스레드 삭제"),
    "denied.action.see_settings": ("seeing the settings", "설정 보기"),
}
