#!/usr/bin/env bash
# Makes .venv-langgraph-dev: a virtual environment with LangGraph's development server
# (`langgraph dev`, requirements-langgraph-dev.txt) beside the project's own packages, which it sees
# from the interpreter that runs this script (--system-site-packages), so the server loads the
# graphs on the same langgraph as the tests. The project's environment itself is left unchanged.
# tests/agents/test_langgraph_dev.py runs the server from there and is skipped without it.
#
#   bash scripts/langgraph-dev-env.sh            # after `pip install -r requirements-test.txt`
set -euo pipefail
cd "$(dirname "$0")/.."

python="${PYTHON:-python}"
env_dir=.venv-langgraph-dev
if [ ! -x "$env_dir/bin/python" ]; then
  "$python" -m venv --system-site-packages "$env_dir"
fi
"$env_dir/bin/python" -m pip install --quiet --disable-pip-version-check -r requirements-langgraph-dev.txt
"$env_dir/bin/langgraph" --version
