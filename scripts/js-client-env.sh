#!/usr/bin/env bash
# Installs LangGraph's official JS client (@langchain/langgraph-sdk, pinned in tests/js/package.json
# and tests/js/package-lock.json) into tests/js/node_modules, for tests/ecosystem/test_js_client.py,
# which runs it with the machine's Node (Debian's `nodejs`; the test is skipped without it).
#
#   bash scripts/js-client-env.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "Node.js and npm are needed: apt-get install nodejs npm" >&2
  exit 1
fi
npm ci --prefix tests/js --no-audit --no-fund --loglevel=error
node --version
