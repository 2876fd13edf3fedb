"""A real OpenID Connect provider for the sign-in tests, and the dashboard configured against it.

The provider is ``oidc-provider-mock`` (a Flask app built on Authlib) served by werkzeug on a free
loopback port in a thread of the test process. Its users are given with their claims (email, name);
its authorization page lists them as buttons, so the browser signs in as one by clicking its email.
The dashboard is ``streamlit run`` with a temporary secrets file holding the ``[auth]`` section
(``--secrets.files``) and the test's roles file (``HITL_ROLES_FILE``).
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import werkzeug.serving
from oidc_provider_mock import User, app
from playwright.sync_api import Page

from tests.browser.conftest import Dashboard, wait_for_app
from tests.serving import dashboard_env, free_port, local_url, running_streamlit


@dataclass(frozen=True)
class Person:
    """Someone who can sign in at the provider."""

    email: str
    name: str


@dataclass(frozen=True)
class Provider:
    """A running provider: its base URL."""

    url: str

    @property
    def metadata_url(self) -> str:
        return f"{self.url}/.well-known/openid-configuration"


class _QuietHandler(werkzeug.serving.WSGIRequestHandler):
    """Logs no request line: the provider's URLs carry codes and tokens."""

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        pass


@contextmanager
def oidc_provider(people: Sequence[Person]) -> Iterator[Provider]:
    """``oidc-provider-mock`` on a free loopback port, knowing ``people``; stopped at the end."""
    users = [User(sub=p.email, claims={"email": p.email, "email_verified": True, "name": p.name}) for p in people]
    server = werkzeug.serving.make_server(
        "127.0.0.1", 0, app(user_claims=users), threaded=True, request_handler=_QuietHandler
    )
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    try:
        yield Provider(url=f"http://127.0.0.1:{server.server_port}")
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@dataclass
class SignedInDashboard(Dashboard):
    """A dashboard that requires sign-in, and the secrets it holds (none may be in what it printed)."""

    secrets: tuple[str, ...] = ()


def write_secrets(path: Path, provider: Provider, dashboard_url: str) -> tuple[str, str]:
    """Writes an ``[auth]`` section against ``provider``; returns the two secrets it holds."""
    client_secret = "client-" + secrets.token_hex(16)
    cookie_secret = "cookie-" + secrets.token_hex(16)
    path.write_text(
        "[auth]\n"
        f'redirect_uri = "{dashboard_url}/oauth2callback"\n'
        f'cookie_secret = "{cookie_secret}"\n'
        'client_id = "hitl-dashboard"\n'
        f'client_secret = "{client_secret}"\n'
        f'server_metadata_url = "{provider.metadata_url}"\n',
        encoding="utf-8",
    )
    return client_secret, cookie_secret


@contextmanager
def serve_signed_in_dashboard(
    tmp_path: Path, provider: Provider, roles_file: Path | None = None
) -> Iterator[SignedInDashboard]:
    """``streamlit run streamlit_app.py`` with ``[auth]`` against ``provider`` on a free port."""
    port = free_port()
    url = local_url(port)
    secrets_file = tmp_path / "secrets.toml"
    held = write_secrets(secrets_file, provider, url)
    db_path = tmp_path / "dashboard.sqlite"
    env = dashboard_env(db_path, **({"HITL_ROLES_FILE": str(roles_file)} if roles_file is not None else {}))
    output: list[str] = []
    with running_streamlit(env, port, extra_args=("--secrets.files", str(secrets_file)), output=output):
        yield SignedInDashboard(url=url, db_path=db_path, env=env, secrets=held, output=output)


def sign_in(page: Page, dashboard: Dashboard, email: str, path: str = "") -> None:
    """Opens the dashboard, presses "Sign in", picks ``email`` at the provider, and waits for the pages."""
    page.goto(f"{dashboard.url}/{path}")
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("button", name=email, exact=True).click()
    page.wait_for_url(f"{dashboard.url}/**")
    wait_for_app(page)
