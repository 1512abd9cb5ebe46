#!/usr/bin/env bash
# `npm test` and its tiers. usage: bash scripts/test.sh [all|unit|integration|e2e]
#   unit         vitest's unit project: no Docker engine, no web build (vitest.config.ts says which files)
#   integration  vitest's integration project on SQLite (real containers), the Python trainer client and
#                the DB-level tests on PostgreSQL, the scale-out fault tests
#   e2e          Playwright in Chromium against the production build
#   all          (npm test) type check, lint, format check and import cycles, then every test of the three tiers
# Each stage's wall time goes to the stage log (.envolve/test-stages.tsv, or ENVOLVE_STAGE_LOG), printed as a
# table when the run ends, passed or failed.
cd "$(dirname "$0")/.."
source scripts/common.sh

tier=${1:-all}
case $tier in all | unit | integration | e2e) ;; *) die "unknown tier '$tier': all, unit, integration or e2e" ;; esac

# The DB-heavy test files, run a second time against PostgreSQL (createTestDb reads ENVOLVE_TEST_DATABASE).
POSTGRES_TEST_FILES=(lib/queue lib/dashboard lib/scheduler lib/review lib/missed-issues lib/trajectories lib/calibration lib/evolution test/evolution/reject-ahead.test.ts lib/auth lib/drift test/scale-out/validation-kill.test.ts)

export ENVOLVE_STAGE_LOG=${ENVOLVE_STAGE_LOG:-$stamp_dir/test-stages.tsv}
start_stage_log
print_stages() { npx tsx scripts/print-stages.ts "$ENVOLVE_STAGE_LOG" "$ENVOLVE_UP_STARTED_MS" || true; }
trap print_stages EXIT

prepare
needs=()
case $tier in
  all) needs=(docker chromium postgres python3) ;;
  integration) needs=(docker postgres python3) ;;
  e2e) needs=(docker chromium) ;;
esac
if [ ${#needs[@]} -gt 0 ]; then
  step "Checking ${needs[*]}"
  timed_stage prerequisites bash scripts/prereqs.sh "${needs[@]}"
fi

if [ "$tier" = all ]; then
  step "Type check (tsc), lint (ESLint), format check (Prettier) and import cycles in lib (madge), side by side"
  # Their caches live under .envolve/, so a second run checks only what changed.
  timed_stage 'tsc, eslint, prettier, madge' run_concurrently "npx tsc --noEmit -p ." \
    "npm run --silent lint -- --cache --cache-location $stamp_dir/eslint-cache" \
    "npm run --silent format:check -- --cache --cache-location $stamp_dir/prettier-cache" \
    "npm run --silent lint:cycles"
fi
if [ "$tier" != unit ]; then
  step "Building the sandbox base image (cached)"
  timed_stage 'base image' node bin/envolve.mjs sandbox base
  # The Python client's tests and Playwright run against the production build.
  prepare_web_build
fi

case $tier in
  unit)
    step "Unit tests (no Docker engine, no web build)"
    timed_stage 'vitest unit' npx vitest run --project unit
    ;;
  integration)
    step "Integration tests (real containers, SQLite)"
    timed_stage 'vitest integration (SQLite)' npx vitest run --project integration --exclude 'test/scale-out/pg-*.test.ts'
    ;;
  all)
    # Both projects in one run: the unit files fill the cores while the integration files wait on containers.
    step "Unit and integration tests (SQLite)"
    timed_stage 'vitest unit + integration (SQLite)' npx vitest run --exclude 'test/scale-out/pg-*.test.ts'
    ;;
esac

if [ "$tier" = all ] || [ "$tier" = integration ]; then
  step "Python trainer client (Debian's python3 -m unittest, against a running server) beside the DB-level tests on PostgreSQL"
  # Side by side: the Python tests start their own server on a free port over their own SQLite file, and
  # spend most of their time waiting on it, while each PostgreSQL test file makes its own database.
  existing=()
  for path in "${POSTGRES_TEST_FILES[@]}"; do [[ -e $path ]] && existing+=("$path"); done
  timed_stage 'python client + vitest (PostgreSQL)' run_concurrently \
    "/usr/bin/python3 -m unittest discover -s clients/python -t clients/python" \
    "ENVOLVE_TEST_DATABASE=postgresql npx vitest run ${existing[*]}"
  step "Scale-out fault tests on PostgreSQL (they restart the server, so they run alone)"
  timed_stage 'scale-out (PostgreSQL)' env ENVOLVE_TEST_DATABASE=postgresql npx vitest run test/scale-out/pg-
fi

if [ "$tier" = all ] || [ "$tier" = e2e ]; then
  step "End-to-end tests (Playwright, Chromium)"
  timed_stage playwright env PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npx playwright test
fi
