#!/usr/bin/env bash
# `npm run up`: a fresh machine to a running dashboard with workers (SQLite, embedded queue).
cd "$(dirname "$0")/.."
source scripts/common.sh

prepare
step "Checking the Docker engine"
bash scripts/prereqs.sh docker
prepare_web_build
step "Preparing the database, the base image and the example tasks"
node bin/envolve.mjs setup --examples examples/tasks --demo seed-logs-awk
step "Starting the dashboard on http://127.0.0.1:${PORT:-3000} and the workers (Ctrl-C stops both)"
exec node scripts/run-services.mjs
