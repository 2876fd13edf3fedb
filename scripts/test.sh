#!/usr/bin/env bash
# Installs what the tests need and runs the whole suite. The README's test
# command and CI both run exactly this.
#
# The persistence tests run on SQLite and on PostgreSQL: a throwaway
# PostgreSQL cluster is started under a temp directory on a free local port and
# stopped when the script exits.
#
# The suite runs on every core (pytest-xdist, HITL_TEST_WORKERS to choose how
# many); the quality gates (ruff, format, import contracts, mypy) are tests in
# tests/test_quality_gates.py, so they run beside the others. The ten slowest
# tests are printed at the end. Arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

python -m pip install --quiet --disable-pip-version-check -r requirements-test.txt
# LangGraph's own development server, in a virtual environment of its own (scripts/langgraph-dev-env.sh).
bash scripts/langgraph-dev-env.sh >/dev/null

# Debian packages: Chromium for the browser tests (Playwright never downloads
# a browser), PostgreSQL for the second backend, Node.js and npm for the JS client.
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
# A Korean font, so Korean pages render in Chromium (screenshots; a missing font draws boxes).
fc-list 2>/dev/null | grep -qi nanum || missing+=(fonts-nanum)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)  # the JS client's tests
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "missing Debian packages: ${missing[*]}; install them as root (apt-get install ${missing[*]})" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# LangGraph's JS client, pinned in tests/js/package-lock.json (scripts/js-client-env.sh).
bash scripts/js-client-env.sh >/dev/null

pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
pg_dir=$(mktemp -d)
pg_port=${HITL_TEST_PG_PORT:-$(python -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
# initdb refuses to run as root; the Debian package provides the postgres user.
if [ "$(id -u)" = 0 ]; then chown postgres:postgres "$pg_dir"; fi
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
stop_postgres() {
  as_postgres "$pg_bin/pg_ctl" -D "$pg_dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$pg_dir"
}
trap stop_postgres EXIT
# A database collation other than "C" (C.UTF-8 is on every Debian machine), as on servers set up for a
# language: the tests then see what the columns declared COLLATE "C" change (a page served by an index, not
# a sort of every row), which a "C" database would hide.
as_postgres "$pg_bin/initdb" -D "$pg_dir/data" -A trust -U postgres --locale=C.UTF-8 --encoding=UTF8 >/dev/null
as_postgres "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/log" -w \
  -o "-p $pg_port -k $pg_dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null
export HITL_TEST_POSTGRES_URL="postgresql://postgres@127.0.0.1:$pg_port/postgres"

# One worker per core. One more was faster once (a browser test's worker waits on the Chromium and dashboard it
# drives), but the suite now keeps two cores busy: on two cores, three workers took 1,160 s (2,218 s of CPU)
# against 1,017-1,122 s (1,870-2,058 s of CPU) for two. Browser flakes whose cause is still to be found: on three
# workers, a grid's selection that never reached the page and the robot page left as an empty shell; on two, a
# requester's first "Submit request" lost and two of the refund page's headers missing after a rerun. A failed
# browser test's report lists its page's connections and errors and what the dashboard printed last.
python -m pytest -n "${HITL_TEST_WORKERS:-auto}" --durations=10 "$@"
