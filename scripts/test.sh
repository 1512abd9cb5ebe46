#!/usr/bin/env bash
# `npm test`: type check, lint and format check, unit and integration tests (real containers) on SQLite, the Python
# trainer client's tests, the DB-level tests again on PostgreSQL, the scale-out fault tests, then Playwright in Chromium.
# The dashboard is built before the tests: the trainer-client tests run against a real `envolve web`.
cd "$(dirname "$0")/.."
source scripts/common.sh

# The DB-heavy test files, run a second time against PostgreSQL (createTestDb reads ENVOLVE_TEST_DATABASE).
POSTGRES_TEST_FILES=(lib/queue lib/dashboard lib/scheduler lib/review lib/missed-issues lib/trajectories lib/calibration lib/evolution test/evolution/reject-ahead.test.ts lib/auth lib/drift test/scale-out/validation-kill.test.ts)

prepare
step "Checking the Docker engine, Chromium, PostgreSQL and Python 3"
bash scripts/prereqs.sh docker chromium postgres python3
step "Type check (tsc), lint (ESLint) and format check (Prettier), side by side"
# Their caches live under .envolve/, so a second run checks only what changed.
run_concurrently "npx tsc --noEmit -p ." \
  "npm run --silent lint -- --cache --cache-location $stamp_dir/eslint-cache" \
  "npm run --silent format:check -- --cache --cache-location $stamp_dir/prettier-cache"
step "Building the sandbox base image (cached)"
node bin/envolve.mjs sandbox base
prepare_web_build
step "Unit and integration tests (SQLite)"
npx vitest run --exclude 'test/scale-out/pg-*.test.ts'
step "Python trainer client (Debian's python3 -m unittest, against a running server) beside the DB-level tests on PostgreSQL"
# Side by side: the Python tests start their own server on a free port over their own SQLite file, and
# spend most of their time waiting on it, while each PostgreSQL test file makes its own database.
existing=()
for path in "${POSTGRES_TEST_FILES[@]}"; do [[ -e $path ]] && existing+=("$path"); done
run_concurrently "/usr/bin/python3 -m unittest discover -s clients/python -t clients/python" \
  "ENVOLVE_TEST_DATABASE=postgresql npx vitest run ${existing[*]}"
step "Scale-out fault tests on PostgreSQL (they restart the server, so they run alone)"
ENVOLVE_TEST_DATABASE=postgresql npx vitest run test/scale-out/pg-
step "End-to-end tests (Playwright, Chromium)"
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npx playwright test
