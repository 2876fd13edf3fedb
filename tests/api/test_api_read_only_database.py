"""``python -m agents serve`` on a database it cannot write: it says so at start and in ``GET /ok``; a file
made unwritable while the server runs fails ``GET /ok`` too, until it is writable again, as does a PostgreSQL
role that loses a table's grant, or whose server stops taking writes, drops its connections or takes no new
ones.

SQLite opens a file it cannot write read-only without a word, so the server would look healthy while every
run, answer and delete is refused. The file is made unwritable for real: immutable (``chattr +i``, which
refuses even root), or, where the tests do not run as root, without write permission (mode bits do not stop
root, so the test is skipped where neither works). A ``file:...?mode=ro`` connection would not do: it is
the server that must find out.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import psycopg
import pytest
from langgraph_sdk import get_sync_client

from agents.runtime import open_store
from tests.api.conftest import PROJECT_ROOT, Server, refused, server_env, stop_server
from tests.factories import unwritable
from tests.fresh_process import start_command
from tests.postgres_schemas import POSTGRES_URL, process_database
from tests.serving import UVICORN_LISTENING, follow_output, free_port


@contextmanager
def serving(db: Path | str) -> Iterator[Server]:
    """``python -m agents serve`` on ``db``, once it listens (its /ok is what the test asks)."""
    port = free_port()
    process = start_command(["serve", "--port", str(port)], PROJECT_ROOT, server_env(db))
    server = Server(f"http://127.0.0.1:{port}", Path(db), process)
    follow_output(process, server.lines, UVICORN_LISTENING, server.printed)
    try:
        assert process.poll() is None, server.log()
        yield server
    finally:
        stop_server(server)


def test_a_read_only_database_is_said_at_start_and_fails_the_health_check(tmp_path: Path) -> None:
    db = tmp_path / "checkpoints.sqlite"
    open_store(db).close()  # set up by this release, then left unwritable
    with unwritable(db), serving(db) as server:
        banner = server.log().split(UVICORN_LISTENING)[0]
        assert f"warning: the database cannot be written: {db} was opened read-only" in banner, banner

        with server.client() as http:
            health = http.get("/ok")
        assert health.status_code == 503, health.text
        assert health.json()["ok"] is False
        assert "cannot be written" in health.json()["detail"] and str(db) in health.json()["detail"]

        with get_sync_client(url=server.url, api_key=None) as client:
            assert client.threads.search() == []  # reads still work
            created = refused(client.threads.create, thread_id="never-saved")
            assert created.status_code == 503 and "is read-only" in created.json()["detail"], created.text
            run = refused(client.runs.wait, "never-saved", "robot", input={}, if_not_exists="create")
            assert run.status_code == 503, run.text


def test_a_writable_database_passes_the_health_check_without_a_warning(tmp_path: Path) -> None:
    db = tmp_path / "checkpoints.sqlite"
    with serving(db) as server, server.client() as http:
        assert _health(http) == (200, {"ok": True})
        assert "warning" not in server.log().split(UVICORN_LISTENING)[0]


def test_a_database_made_unwritable_after_the_start_fails_the_health_check_until_writable_again(
    tmp_path: Path,
) -> None:
    """Opened writable, then made unwritable under the running server: SQLite still writes its log, and fails
    at its next write to the file itself, so ``GET /ok`` says so at once, and is healthy again once the file
    is writable."""
    db = tmp_path / "checkpoints.sqlite"
    with serving(db) as server, server.client() as http:
        assert _health(http) == (200, {"ok": True})
        with unwritable(db):
            health = http.get("/ok")
            assert health.status_code == 503, health.text
            assert health.json()["ok"] is False and health.json()["services"] == {"database": "unhealthy"}
            assert "can no longer be written" in health.json()["detail"] and str(db) in health.json()["detail"]
        assert _health(http) == (200, {"ok": True})


def _health(http: Any) -> tuple[int, Any]:
    """``GET /ok``'s status and body, from one request."""
    answer = http.get("/ok")
    return answer.status_code, answer.json()


@contextmanager
def own_role() -> Iterator[tuple[str, psycopg.Connection]]:
    """A login role that owns a schema of its own (so the store sets its tables up as that role): the URL that
    connects as it, and a superuser's connection to take its grants and give them back."""
    if not POSTGRES_URL:
        pytest.skip("HITL_TEST_POSTGRES_URL is not set (scripts/test.sh starts a PostgreSQL server)")
    role = f"hitl_role_{uuid.uuid4().hex[:8]}"
    database = urlsplit(process_database())
    url = database._replace(netloc=f"{role}@{database.hostname}:{database.port}").geturl()
    with psycopg.connect(process_database(), autocommit=True) as admin:
        admin.execute(f"CREATE ROLE {role} LOGIN")
        admin.execute(f"CREATE SCHEMA {role} AUTHORIZATION {role}")
        try:
            yield f"{url}?options=-csearch_path%3D{role}", admin
        finally:
            admin.execute(f"DROP SCHEMA {role} CASCADE")
            admin.execute(f"DROP OWNED BY {role}")
            admin.execute(f"DROP ROLE {role}")


def test_a_postgres_role_that_loses_a_grant_fails_the_health_check_until_it_is_given_back() -> None:
    with own_role() as (url, admin), serving(url) as server, server.client() as http:
        role = urlsplit(url).username
        assert _health(http) == (200, {"ok": True})
        admin.execute(f"REVOKE UPDATE ON {role}.refund_ledger FROM {role}")
        health = http.get("/ok")
        assert health.status_code == 503, health.text
        assert health.json()["ok"] is False and health.json()["services"] == {"database": "unhealthy"}
        assert "may not insert into, update or delete from refund_ledger," in health.json()["detail"]
        assert "postgresql://" in health.json()["detail"]
        admin.execute(f"GRANT UPDATE ON {role}.refund_ledger TO {role}")
        assert _health(http) == (200, {"ok": True})


def test_a_postgres_server_that_takes_no_writes_is_said_at_start_and_fails_the_health_check() -> None:
    with own_role() as (url, admin):
        open_store(url).close()  # set up by this release, then read-only for the role
        admin.execute(f"ALTER ROLE {urlsplit(url).username} SET default_transaction_read_only = on")
        with serving(url) as server, server.client() as http:
            banner = server.log().split(UVICORN_LISTENING)[0]
            assert "warning: the database cannot be written: the PostgreSQL server of" in banner, banner
            health = http.get("/ok")
            assert health.status_code == 503 and "takes no writes" in health.json()["detail"], health.text
            with get_sync_client(url=server.url, api_key=None) as client:
                assert client.threads.search() == []  # reads still work
                run = refused(client.runs.wait, "never-saved", "robot", input={}, if_not_exists="create")
                assert run.status_code == 503 and "takes no writes" in run.json()["detail"], run.text
                assert client.threads.search() == []  # the refused run saved no thread


def test_a_postgres_server_that_drops_the_connections_is_a_503_naming_it_then_served_again() -> None:
    """Its sessions ended by the server (as a restart or a failover ends them): the request on a dropped
    connection is a 503 that says the server cannot be reached, not an internal error; the pool then connects
    again by itself."""
    with own_role() as (url, admin), serving(url) as server, server.client() as http:
        assert _health(http) == (200, {"ok": True})
        ended = admin.execute(
            "SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity WHERE usename = %s",  # once they are gone
            (urlsplit(url).username,),
        ).fetchall()
        assert ended and all(done for (done,) in ended)
        health = http.get("/ok")
        assert health.status_code == 503, health.text
        assert "cannot be reached now (" in health.json()["detail"] and "internal error" not in health.text
        answers = [_health(http) for _dropped in range(len(ended) + 1)]  # each dropped connection is met once
        assert answers[-1] == (200, {"ok": True}), answers
        assert "Traceback" not in server.log()  # a 500 logs its traceback


def test_a_postgres_server_that_takes_no_new_connections_is_a_503_that_says_why_without_the_pools_wait() -> None:
    """Its sessions ended and new ones refused (as while a server is down): once the dropped connections are
    met, a request finds no pooled connection. It is told what the server answered (here, that the role may
    not log in), where it waited out the pool's 30 s to be told only that none came; once the server takes
    connections again, the pool's next one serves it."""
    with own_role() as (url, admin), serving(url) as server, server.client() as http:
        role = urlsplit(url).username
        assert _health(http) == (200, {"ok": True})
        admin.execute(f"ALTER ROLE {role} NOLOGIN")
        ended = admin.execute(
            "SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity WHERE usename = %s", (role,)
        ).fetchall()
        assert ended and all(done for (done,) in ended)
        answers = [http.get("/ok") for _dropped in range(len(ended) + 1)]  # each dropped connection is met once
        assert [answer.status_code for answer in answers] == [503] * len(answers), [a.text for a in answers]
        said = answers[-1].json()["detail"]
        assert "cannot be reached now (" in said and f'role "{role}" is not permitted to log in' in said, said
        assert "couldn't get a connection" not in said
        admin.execute(f"ALTER ROLE {role} LOGIN")
        assert _health(http) == (200, {"ok": True})
        assert "Traceback" not in server.log()
