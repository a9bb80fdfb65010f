#!/usr/bin/env bash
# Installs schemathesis (pinned) into a git-ignored virtualenv and fuzzes every operation of openapi.yaml.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .cache/venv/bin/schemathesis ] || ! .cache/venv/bin/pip freeze 2>/dev/null | grep -qxF "$(cat scripts/fuzz-requirements.txt)"; then
  python3 -m venv .cache/venv
  .cache/venv/bin/pip install -q -r scripts/fuzz-requirements.txt
fi
exec npx tsx scripts/fuzz-api.ts
