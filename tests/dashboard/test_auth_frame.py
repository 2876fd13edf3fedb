"""The frame's sign-in gate in local mode (no ``[auth]``): the badge, and no local mode beyond loopback.

Sign-in itself (``[auth]`` against a real OpenID Connect provider) is driven in Chromium by
tests/browser/test_signin_flow.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from streamlit import config
from streamlit.testing.v1 import AppTest

from dashboard.auth import listens_on_loopback_only


def _sidebar_text(test: AppTest) -> str:
    return " ".join(str(element.value) for element in test.sidebar.markdown) + " ".join(
        str(element.value) for element in test.sidebar.caption
    )


def test_local_mode_shows_its_badge_and_every_page(app: Callable[[str], AppTest]) -> None:
    test = app("app_pages/refund.py")
    assert not test.exception
    assert "local mode — not signed in" in _sidebar_text(test)
    assert test.title[0].value == "Refund agent"


def test_the_badge_is_bilingual(app: Callable[[str], AppTest]) -> None:
    test = app("app_pages/home.py")
    test.sidebar.selectbox[0].select("ko").run()
    assert "로컬 모드 — 로그인하지 않음" in _sidebar_text(test)


@pytest.fixture
def server_address() -> Iterator[Callable[[str], None]]:
    before = config.get_option("server.address")

    def set_address(address: str) -> None:
        config.set_option("server.address", address)

    yield set_address
    config.set_option("server.address", before)


def test_local_mode_beyond_loopback_is_refused(
    app: Callable[[str], AppTest], server_address: Callable[[str], None]
) -> None:
    server_address("0.0.0.0")
    test = app("app_pages/home.py")
    assert not test.exception
    assert "0.0.0.0" in test.error[0].value and "secrets.toml" in test.error[0].value
    assert not test.title  # no page drawn


@pytest.mark.parametrize(
    ("address", "loopback"),
    [
        ("localhost", True),
        ("127.0.0.1", True),
        ("127.0.1.1", True),
        ("::1", True),
        ("[::1]", True),
        ("", False),
        (None, False),
        ("0.0.0.0", False),
        ("::", False),
        ("192.168.1.20", False),
        ("dashboard.example.com", False),
    ],
)
def test_loopback_addresses(address: str | None, loopback: bool) -> None:
    assert listens_on_loopback_only(address) is loopback
