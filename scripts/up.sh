#!/usr/bin/env bash
# `npm run up`: a fresh machine to a running dashboard with workers (SQLite, embedded queue).
# Each stage's wall time goes to the stage log (.envolve/stages.tsv, or ENVOLVE_STAGE_LOG), printed once the
# dashboard's sign-in page answers. The dashboard starts as soon as the database is migrated; the base image,
# the example tasks and the demo lineage (`envolve setup`) are prepared beside it, then the workers start.
cd "$(dirname "$0")/.."
source scripts/common.sh

start_stage_log
prepare
step "Checking the Docker engine"
timed_stage engine bash scripts/prereqs.sh docker
prepare_web_build
step "Migrating the database"
node bin/envolve.mjs db migrate
step "Starting the dashboard on http://127.0.0.1:${PORT:-3000}; the base image, the example tasks and the demo lineage are prepared beside it, then the workers start (Ctrl-C stops all)"
exec node scripts/run-services.mjs
