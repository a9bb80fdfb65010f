#!/usr/bin/env bash
# Prints the path of a Chromium for the dashboard's browser tests, installing Debian's `chromium` package when none
# is found. playwright-core drives it and never downloads a browser of its own (this machine's network reaches the
# package registries only). Order: $CHROMIUM_PATH, `chromium` or `chromium-browser` on PATH, else apt-get as root.
set -euo pipefail

if [ -n "${CHROMIUM_PATH:-}" ]; then
  if [ -x "$CHROMIUM_PATH" ]; then echo "$CHROMIUM_PATH"; exit 0; fi
  echo "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable file" >&2
  exit 1
fi
for name in chromium chromium-browser; do
  if command -v "$name" >/dev/null 2>&1; then command -v "$name"; exit 0; fi
done

if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "Chromium not found: install Debian's chromium package (sudo apt-get install chromium) or set CHROMIUM_PATH" >&2
  exit 1
fi
echo "Installing Debian's chromium package for the browser tests (once per machine)…" >&2
export DEBIAN_FRONTEND=noninteractive
# Serialised: two test workers, or CI and a test, may get here at once, and dpkg allows one installer at a time.
exec 9>/tmp/ensure-chromium.lock
flock 9
if ! command -v chromium >/dev/null 2>&1; then
  apt-get update -qq >&2
  # fonts-liberation: metric-compatible fonts, so screenshots read like a person's browser, not boxes.
  apt-get install -y -qq chromium fonts-liberation >/dev/null
fi
command -v chromium
