#!/usr/bin/env bash
# Prints the path of a Temporal CLI, building the pinned version from the Go module proxy when none is found.
# Order: $TEMPORAL_CLI_PATH, `temporal` on PATH, .tools/bin/temporal (git-ignored, reused), the per-user
# cache (so a fresh clone on the same machine skips the build), else `go install` into that cache.
set -euo pipefail
PINNED=v1.5.1 # later releases carry replace directives that `go install …@version` refuses (see README)
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="$root/.tools/bin"
user_cache="${XDG_CACHE_HOME:-$HOME/.cache}/launchpad-prediction-api/temporal-$PINNED"

if [ -n "${TEMPORAL_CLI_PATH:-}" ] && [ -x "$TEMPORAL_CLI_PATH" ]; then echo "$TEMPORAL_CLI_PATH"; exit 0; fi
if command -v temporal >/dev/null 2>&1; then command -v temporal; exit 0; fi
if [ -x "$tools/temporal" ]; then echo "$tools/temporal"; exit 0; fi
link() { mkdir -p "$tools"; ln -sf "$user_cache/temporal" "$tools/temporal"; echo "$tools/temporal"; }
if [ -x "$user_cache/temporal" ]; then link; exit 0; fi

if ! command -v go >/dev/null 2>&1; then
  echo "Temporal CLI not found and Go is not installed: install Go, set TEMPORAL_CLI_PATH, or set TEMPORAL_ADDRESS" >&2
  exit 1
fi
echo "Building Temporal CLI $PINNED from the Go module proxy (a few minutes the first time)…" >&2
mkdir -p "$user_cache"
GOBIN="$user_cache" GOFLAGS=-mod=mod go install "github.com/temporalio/cli/cmd/temporal@$PINNED" >&2
link
