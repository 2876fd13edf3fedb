"""Mail reaches a real SMTP server (aiosmtpd on loopback) that wants encryption and a login: STARTTLS
(``smtp://host:port?starttls=1``), TLS from the first byte (``smtps://``), a login from the settings or from
the URL; the certificate is a self-signed one made here, trusted through ``HITL_NOTIFY_SMTP_CA``. The password
is never in a refusal, an error, ``notify --status`` or the settings' repr.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import ssl
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from agents.errors import InputError
from agents.notify import outbox
from agents.notify.deliverer import Deliverer
from agents.runtime import load_settings
from agents.settings import Settings, read_secrets_file
from agents.settings_notify import notify_setting
from tests.agents.notify.conftest import notifying
from tests.factories import start_refund
from tests.notify_receivers import MailBox
from tests.serving import free_port

# aiosmtpd warns of a server that asks for a login without TLS; the plain-SMTP tests make one on purpose.
pytestmark = pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS:UserWarning")

USER, PASSWORD = "hitl-mailer", "pa:ss@w0rd/+"


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and localhost: (certificate PEM, key PEM)."""
    folder = tmp_path_factory.mktemp("tls")
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(hours=1))
        .not_valid_after(now + dt.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "server.pem", folder / "server.key"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return cert_path, key_path


class LoginBox(MailBox):
    """A mailbox that also keeps each login tried and whether each mail came over TLS."""

    def __init__(self) -> None:
        super().__init__()
        self.logins: list[tuple[str, str]] = []
        self.encrypted: list[bool] = []
        self.lock = threading.Lock()

    def authenticate(self, server: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> AuthResult:
        if not isinstance(data, LoginPassword):
            return AuthResult(success=False, handled=False)
        login, password = data.login.decode(), data.password.decode()
        with self.lock:
            self.logins.append((login, password))
        return AuthResult(success=(login, password) == (USER, PASSWORD), handled=False)  # a refusal is answered

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802  # aiosmtpd's name
        # STARTTLS sets the session's TLS details; TLS from the first byte shows in the transport.
        self.encrypted.append(session.ssl is not None or server.transport.get_extra_info("ssl_object") is not None)
        return await super().handle_DATA(server, session, envelope)


@contextmanager
def smtp_server(
    certificate: tuple[Path, Path] | None, *, implicit: bool = False, **options: Any
) -> Iterator[tuple[LoginBox, int]]:
    """A real aiosmtpd server on a free loopback port that asks for a login; with ``certificate``, it offers
    STARTTLS (or, ``implicit``, speaks TLS from the first byte)."""
    box = LoginBox()
    port = free_port()
    context = None
    if certificate is not None:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(*certificate)
    tls = {"ssl_context": context} if implicit else {"tls_context": context}
    controller = Controller(
        box,
        hostname="127.0.0.1",
        port=port,
        authenticator=box.authenticate,
        auth_required=True,
        **(tls if context is not None else {}),
        **options,
    )
    controller.start()
    try:
        yield box, port
    finally:
        controller.stop()


def mailing(settings: Settings, url: str, **values: str) -> Settings:
    return notifying(
        settings, HITL_NOTIFY_SMTP=url, HITL_NOTIFY_FROM="hitl@example.com", HITL_NOTIFY_TO="ops@example.com", **values
    )


def deliver(store: Any, settings: Settings) -> None:
    start_refund(store, settings, "T1", 500_000)
    Deliverer(store, settings).run_once()


def test_starttls_with_a_login_from_the_settings(store, settings, certificate):
    with smtp_server(certificate, require_starttls=True) as (box, port):
        settings = mailing(
            settings,
            f"smtp://127.0.0.1:{port}?starttls=1",
            HITL_NOTIFY_SMTP_USER=USER,
            HITL_NOTIFY_SMTP_PASSWORD=PASSWORD,
            HITL_NOTIFY_SMTP_CA=str(certificate[0]),
        )
        deliver(store, settings)
        [(to, mail)] = box.wait_for(1)
    assert to == ["ops@example.com"] and "500,000 KRW" in mail.get_payload(decode=True).decode()
    assert box.logins == [(USER, PASSWORD)] and box.encrypted == [True]
    assert outbox.status(store).delivered == 1 and not outbox.failing(store)


def test_smtps_with_the_login_in_the_url(store, settings, certificate):
    with smtp_server(certificate, implicit=True, auth_require_tls=False) as (box, port):
        url = f"smtps://{USER}:{'pa%3Ass%40w0rd%2F%2B'}@127.0.0.1:{port}"
        settings = mailing(settings, url, HITL_NOTIFY_SMTP_CA=str(certificate[0]))
        assert settings.notify.smtp_address == f"smtps://{USER}@127.0.0.1:{port}"
        deliver(store, settings)
        box.wait_for(1)
    assert box.logins == [(USER, PASSWORD)] and box.encrypted == [True]


def test_a_login_over_plain_smtp_to_this_machine(store, settings):
    with smtp_server(None, auth_require_tls=False) as (box, port):
        settings = mailing(
            settings, f"smtp://127.0.0.1:{port}", HITL_NOTIFY_SMTP_USER=USER, HITL_NOTIFY_SMTP_PASSWORD=PASSWORD
        )
        deliver(store, settings)
        box.wait_for(1)
    assert box.logins == [(USER, PASSWORD)] and box.encrypted == [False]


def test_a_refused_login_is_a_failure_that_shows_no_password(store, settings, certificate, run_cli, monkeypatch):
    with smtp_server(certificate, require_starttls=True) as (box, port):
        url = f"smtp://127.0.0.1:{port}?starttls=1"
        values = {
            "HITL_NOTIFY_SMTP": url,
            "HITL_NOTIFY_FROM": "hitl@example.com",
            "HITL_NOTIFY_TO": "ops@example.com",
            "HITL_NOTIFY_SMTP_USER": USER,
            "HITL_NOTIFY_SMTP_PASSWORD": "wrong-Secret-7",
            "HITL_NOTIFY_SMTP_CA": str(certificate[0]),
        }
        settings = mailing(settings, url, **{k: v for k, v in values.items() if k.startswith("HITL_NOTIFY_SMTP_")})
        deliver(store, settings)
        assert set(box.logins) == {(USER, "wrong-Secret-7")} and box.mails == []  # PLAIN, then LOGIN
    [(_event, channel, attempts, error, _next)] = outbox.failing(store)
    assert channel == "email" and attempts == 1 and f"refused the login of {USER}" in error
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    for args in (("notify", "--status"), ("notify", "--status", "--json")):
        shown = run_cli(*args)
        assert shown.code == 3 and f"smtp://{USER}@127.0.0.1:{port}?starttls=1" in shown.out
        assert "wrong-Secret-7" not in shown.out + shown.err
    assert "wrong-Secret-7" not in repr(settings) + str(settings)


def test_starttls_is_refused_when_the_server_offers_none_and_nothing_is_sent(store, settings):
    with smtp_server(None, auth_require_tls=False) as (box, port):
        settings = mailing(
            settings,
            f"smtp://127.0.0.1:{port}?starttls=1",
            HITL_NOTIFY_SMTP_USER=USER,
            HITL_NOTIFY_SMTP_PASSWORD=PASSWORD,
        )
        deliver(store, settings)
        assert box.logins == [] and box.mails == []
    [(_event, _channel, _attempts, error, _next)] = outbox.failing(store)
    assert "offers no STARTTLS" in error


def test_a_certificate_no_authority_vouches_for_is_refused(store, settings, certificate):
    with smtp_server(certificate, require_starttls=True) as (box, port):
        settings = mailing(
            settings,
            f"smtp://127.0.0.1:{port}?starttls=1",
            HITL_NOTIFY_SMTP_USER=USER,
            HITL_NOTIFY_SMTP_PASSWORD=PASSWORD,
        )  # no HITL_NOTIFY_SMTP_CA: the system's authorities do not know this certificate
        deliver(store, settings)
        assert box.logins == [] and box.mails == []
    [(_event, _channel, _attempts, error, _next)] = outbox.failing(store)
    assert "TLS failed" in error and "CERTIFICATE_VERIFY_FAILED" in error


@pytest.mark.parametrize(
    ("values", "setting", "words"),
    [
        ({"HITL_NOTIFY_SMTP": "smtp://u:s3cr3t@mail.example.com:25"}, "HITL_NOTIFY_SMTP", "only encrypted"),
        ({"HITL_NOTIFY_SMTP": "smtp://u:s3cr3t@mail.example.com:x"}, "HITL_NOTIFY_SMTP", "a URL with a login"),
        ({"HITL_NOTIFY_SMTP": "smtp://mail.example.com:25?starttls=2"}, "HITL_NOTIFY_SMTP", "starttls=1"),
        ({"HITL_NOTIFY_SMTP": "smtp://mail.example.com:25?tls=1"}, "HITL_NOTIFY_SMTP", "starttls=1"),
        ({"HITL_NOTIFY_SMTP": "smtps://mail.example.com:465?starttls=1"}, "HITL_NOTIFY_SMTP", "from the start"),
        ({"HITL_NOTIFY_SMTP": "smtp://u@mail.example.com:25"}, "HITL_NOTIFY_SMTP", "user:password@host"),
        (
            {"HITL_NOTIFY_SMTP": "smtps://mail.example.com:465", "HITL_NOTIFY_SMTP_USER": "u"},
            "HITL_NOTIFY_SMTP_PASSWORD",
            "both",
        ),
        (
            {"HITL_NOTIFY_SMTP": "smtps://mail.example.com:465", "HITL_NOTIFY_SMTP_PASSWORD": "s3cr3t"},
            "HITL_NOTIFY_SMTP_USER",
            "both",
        ),
        ({"HITL_NOTIFY_SMTP_USER": "u", "HITL_NOTIFY_SMTP_PASSWORD": "s3cr3t"}, "HITL_NOTIFY_SMTP", "login"),
        (
            {"HITL_NOTIFY_SMTP": "smtps://h:465", "HITL_NOTIFY_SMTP_CA": "/no/such/ca.pem"},
            "HITL_NOTIFY_SMTP_CA",
            "no file",
        ),
    ],
)
def test_bad_smtp_settings_are_refused_naming_the_setting_and_never_the_password(values, setting, words):
    with pytest.raises(InputError) as refused:
        notify_setting({"HITL_NOTIFY_FROM": "hitl@example.com", **values})
    assert refused.value.field == setting and words in str(refused.value)
    assert "s3cr3t" not in str(refused.value)


def test_a_login_from_the_secrets_file_is_a_secret(tmp_path: Path, db_location):
    secrets = tmp_path / "secrets.toml"
    secrets.write_text(
        'HITL_NOTIFY_SMTP = "smtps://mail.example.com:465"\nHITL_NOTIFY_FROM = "hitl@example.com"\n'
        f'HITL_NOTIFY_SMTP_USER = "{USER}"\nHITL_NOTIFY_SMTP_PASSWORD = "s3cr3t"\n'
    )
    notify = load_settings(db_override=db_location, secrets=read_secrets_file(secrets)).notify
    assert notify.smtp_user == USER and notify.smtp_password is not None
    assert notify.smtp_password.reveal() == "s3cr3t" and "s3cr3t" not in repr(notify) + notify.smtp_address
    assert notify.smtp_tls == "tls"
