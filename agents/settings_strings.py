"""Refusals of settings read at start: the HTTP API's, the notifications', the roles file's, and ``migrate``'s.

``{key: (english, korean)}``, merged into :data:`agents.strings.STRINGS`, so the CLI (``--lang ko``) and
a Korean page say them in the reader's language. A setting's name, a URL's form and a file's keys are
code and stay as written.
"""

STRINGS: dict[str, tuple[str, str]] = {
    # The HTTP API (``agents.settings_api``).
    "error.setting.origin_alone": (
        "'*' (every origin) stands alone; got {entries}",
        "'*'(모든 출처)는 다른 출처와 함께 쓸 수 없습니다. 입력값: {entries}",
    ),
    "error.setting.not_origin": (
        "{entry} is not an origin: one is http(s)://host[:port], with no path, e.g. http://localhost:3000",
        "{entry:은/는} 출처가 아닙니다. 출처는 경로 없는 http(s)://호스트[:포트]입니다. 예: http://localhost:3000",
    ),
    "error.setting.not_origin_script": (
        "{entry} is not an origin: one is http(s)://host[:port], with no path, e.g. http://localhost:3000 "
        "(a name in another script in its punycode form, xn--...)",
        "{entry:은/는} 출처가 아닙니다. 출처는 경로 없는 http(s)://호스트[:포트]입니다. "
        "예: http://localhost:3000 (다른 문자로 된 이름은 'xn--'으로 시작하는 퓨니코드 형식으로 씁니다)",
    ),
    "error.setting.local_approver_roles": (
        "names the approver of local mode (no sign-in), and a roles file is set: decisions are recorded under the "
        "signed-in identity. Remove it, and give a client that sends no approver (Agent Inbox) a roles-file token "
        "as its API key",
        "로컬 모드(로그인 없음)의 승인자를 정하는 설정인데 역할 파일이 있습니다. 결정은 로그인한 사람의 "
        "이름으로 기록됩니다. 이 설정을 지우고, 승인자를 보내지 않는 클라이언트(Agent Inbox)에는 역할 파일의 "
        "토큰을 API 키로 주세요",
    ),
    "error.setting.local_approver_name": (
        "must be a name of at most {maximum} characters on one line",
        "한 줄로 된 {maximum}자 이하의 이름이어야 합니다",
    ),
    "error.setting.local_approver_reserved": (
        "{name} is reserved for what the agents write themselves, and no decision is recorded under it; give the "
        "name of the person who decides",
        "{name:은/는} 에이전트가 스스로 기록할 때 쓰는 이름이라 이 이름으로는 결정이 기록되지 않습니다. 결정하는 "
        "사람의 이름을 주세요",
    ),
    # Notifications (``agents.settings_notify``).
    "error.setting.webhook_url": (
        "must be an http:// or https:// URL with a host",
        "호스트가 있는 http:// 또는 https:// URL이어야 합니다",
    ),
    "error.setting.login_pair": (
        "a login needs both a user and a password (in the URL or in their settings)",
        "로그인에는 사용자와 비밀번호가 모두 필요합니다(URL에 쓰거나 각 설정에)",
    ),
    "error.setting.login_ascii": (
        "must be ASCII characters, as SMTP logins are sent",
        "SMTP 로그인은 ASCII 문자로 보내므로 ASCII 문자여야 합니다",
    ),
    "error.setting.smtp_for_login": (
        "is needed with a login: the server to log in to",
        "로그인이 있으면 필요합니다: 로그인할 서버입니다",
    ),
    "error.setting.smtp_plain_password": (
        "sends a password only encrypted: use smtps://host:port or smtp://host:port?starttls=1 (plain SMTP with a "
        "login only to this machine)",
        "비밀번호는 암호화해서만 보냅니다. smtps://host:port 또는 smtp://host:port?starttls=1을 쓰세요(로그인이 "
        "있는 암호화 없는 SMTP는 이 컴퓨터로만)",
    ),
    "error.setting.no_file": ("names no file: {path}", "파일이 없습니다: {path}"),
    "error.setting.from_needed": (
        "is needed with {setting}: the address mails are sent from",
        "{setting:이/가} 있으면 필요합니다: 메일을 보내는 주소입니다",
    ),
    "error.setting.not_email": ("{address} is not an email address", "{address:은/는} 이메일 주소가 아닙니다"),
    "error.setting.public_url": (
        "must be an http:// or https:// address, e.g. {example}",
        "http:// 또는 https:// 주소여야 합니다. 예: {example}",
    ),
    "error.setting.smtp_url": (
        "write smtp://host:port, smtp://host:port?starttls=1 or smtps://host:port, e.g. smtp://localhost:25; "
        "got {value}",
        "smtp://host:port, smtp://host:port?starttls=1 또는 smtps://host:port로 쓰세요. 예: smtp://localhost:25. "
        "입력값: {value}",
    ),
    "error.setting.smtp_url_login": ("a URL with a login", "로그인이 든 URL"),
    "error.setting.smtp_option": (
        "takes one option, starttls=1: write smtp://host:port, smtp://host:port?starttls=1 or smtps://host:port, "
        "e.g. smtp://localhost:25; got {value}",
        "옵션은 starttls=1 하나만 받습니다. smtp://host:port, smtp://host:port?starttls=1 또는 smtps://host:port로 "
        "쓰세요. 예: smtp://localhost:25. 입력값: {value}",
    ),
    "error.setting.smtps_starttls": (
        "smtps:// is encrypted from the start; starttls=1 is for smtp://",
        "smtps://는 처음부터 암호화됩니다. starttls=1은 smtp://에 씁니다",
    ),
    "error.setting.smtp_url_user": (
        "a login in the URL is user:password@host",
        "URL의 로그인은 user:password@host 형식입니다",
    ),
    # The roles file (``agents.roles_file``): "roles file PATH[, line N]: ENTRY: PROBLEM".
    "error.roles.file": ("roles file {path}: {message}", "역할 파일 {path}: {message}"),
    "error.roles.file_line": (
        "roles file {path}, line {line}: {message}",
        "역할 파일 {path}, {line}번째 줄: {message}",
    ),
    "error.roles.entry": ("{entry}: {message}", "{entry}: {message}"),
    "error.roles.unreadable": ("cannot be read: {error}", "읽을 수 없습니다: {error}"),
    "error.roles.not_toml": ("not valid TOML: {error}", "올바른 TOML이 아닙니다: {error}"),
    "error.roles.section": (
        "is not a known section; known: [users], [tokens]",
        "알 수 없는 섹션입니다. 쓸 수 있는 섹션: [users], [tokens]",
    ),
    "error.roles.section_table": ("must be a table of entries", "항목들의 테이블이어야 합니다"),
    "error.roles.email": (
        "must be an email address, e.g. kim@example.com",
        "이메일 주소여야 합니다. 예: kim@example.com",
    ),
    "error.roles.email_length": (
        "is {length} characters long; an email address has at most {maximum}",
        "{length}자입니다. 이메일 주소는 {maximum}자 이하입니다",
    ),
    "error.roles.email_twice": (
        "is listed twice (emails are compared without case)",
        "두 번 적혀 있습니다(이메일은 대소문자를 가리지 않고 비교합니다)",
    ),
    "error.roles.user_table": (
        'must be a table, e.g. {{ role = "approver", limit_krw = 1_000_000 }}',
        '테이블이어야 합니다. 예: {{ role = "approver", limit_krw = 1_000_000 }}',
    ),
    "error.roles.unknown_key": ("is not a known key; known: {known}", "알 수 없는 키입니다. 쓸 수 있는 키: {known}"),
    "error.roles.role": ("must be one of {roles}; got {value}", "{roles} 중 하나여야 합니다. 입력값: {value}"),
    "error.roles.limit": (
        "an approver needs a limit: a whole number of KRW of at least 1; got {value}",
        "승인자에게는 한도가 필요합니다: 1 이상의 원 단위 정수. 입력값: {value}",
    ),
    "error.roles.limit_missing": (
        "an approver needs a limit: limit_krw, a whole number of KRW of at least 1",
        "승인자에게는 한도가 필요합니다: limit_krw에 1 이상의 원 단위 정수를 쓰세요",
    ),
    "error.roles.limit_not_approver": (
        "only an approver has a limit; a {role} has none",
        "한도는 승인자만 가집니다. {role}에게는 한도가 없습니다",
    ),
    "error.roles.text": ("must be text; got {value}", "텍스트여야 합니다. 입력값: {value}"),
    "error.roles.token_table": (
        'must be a table, e.g. {{ sha256 = "…", email = "kim@example.com" }}',
        '테이블이어야 합니다. 예: {{ sha256 = "…", email = "kim@example.com" }}',
    ),
    "error.roles.sha256": (
        "must be the token's SHA-256 as 64 hex digits (never the token itself); print it with: python -m agents "
        "token-hash",
        "토큰의 SHA-256을 16진수 64자리로 써야 합니다(토큰 자체는 절대 쓰지 않습니다). 출력하는 명령: python -m "
        "agents token-hash",
    ),
    "error.roles.token_email": (
        "must be the email the token acts for; got {value}",
        "토큰이 대신하는 사람의 이메일이어야 합니다. 입력값: {value}",
    ),
    "error.roles.same_hash": (
        "has the same hash as another token; give each token its own",
        "다른 토큰과 해시가 같습니다. 토큰마다 다른 토큰을 주세요",
    ),
    # ``python -m agents migrate`` (``agents.migrate``).
    "error.migrate.direction": (
        "migrate copies a SQLite file into a PostgreSQL database",
        "migrate는 SQLite 파일을 PostgreSQL 데이터베이스로 복사합니다",
    ),
    "error.migrate.not_empty": (
        "{target} already holds threads; migrate into an empty database",
        "{target}에 이미 스레드가 있습니다. 빈 데이터베이스로 옮기세요",
    ),
    "error.migrate.mismatch": (
        "the copy does not match the source: {wrong}",
        "복사본이 원본과 다릅니다: {wrong}",
    ),
}
