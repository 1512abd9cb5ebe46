#!/usr/bin/env bash
# `npm test`: type check, unit and integration tests (real containers), then Playwright in Chromium.
cd "$(dirname "$0")/.."
source scripts/common.sh

prepare
step "Checking the Docker engine and Chromium"
bash scripts/prereqs.sh docker chromium
step "Type check"
npx tsc --noEmit -p .
step "Building the sandbox base image (cached)"
node bin/envolve.mjs sandbox base
step "Unit and integration tests"
npx vitest run
prepare_web_build
step "End-to-end tests (Playwright, Chromium)"
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npx playwright test
