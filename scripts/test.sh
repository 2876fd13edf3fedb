#!/usr/bin/env bash
# Installs what the tests need and runs the whole suite. The README's test
# command and CI both run exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."

python -m pip install --quiet --disable-pip-version-check -r requirements-test.txt

# Browser tests drive Debian's Chromium; Playwright never downloads a browser.
if ! command -v chromium >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

python -m ruff check .
python -m pytest "$@"
