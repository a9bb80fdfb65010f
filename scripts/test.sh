#!/usr/bin/env bash
# The README's test command (`npm test`): type check, lint (code and openapi.yaml), exports nothing uses (knip.json
# names the entry points), then every jest tier
# against real PostgreSQL and a real Temporal dev server, which the jest global setup starts on test ports.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "• type check"; npx tsc -p tsconfig.json --noEmit && npx tsc -p web/tsconfig.json --noEmit
echo "• eslint"; npx eslint .
echo "• import cycles"; npx tsx scripts/import-cycles.ts
echo "• format"; npx prettier --check "**/*.{ts,js}" --log-level warn
echo "• openapi lint"; npx redocly lint openapi.yaml --format=stylish
echo "• typed client"; npx tsx scripts/gen-client.ts --check
echo "• parameter checks"; npx tsx scripts/gen-param-checks.ts --check
echo "• unused exports"; npx knip --include exports --no-progress
echo "• configuration reference"; npx tsx scripts/gen-config-doc.ts --check

mkdir -p .cache/test
status=0
npx jest --ci --json --outputFile=.cache/test/jest-results.json "$@" || status=$?
# A plain closing line that any CI can read, whatever jest prints above it.
node -e '
  const r = require("./.cache/test/jest-results.json");
  console.log(`jest: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped`);
  if (r.numTotalTests === 0) { console.error("no test ran"); process.exit(1); }
' || status=1
exit $status
