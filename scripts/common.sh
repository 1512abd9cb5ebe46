# Shared steps of `npm run up` and `npm test`: each is skipped when its inputs are unchanged,
# so a second run starts in seconds.
set -euo pipefail

# No telemetry or update checks: these machines reach no host but the package registries.
export NEXT_TELEMETRY_DISABLED=1

step() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
die() { printf 'envolve: %s\n' "$*" >&2; exit 1; }

stamp_dir=.envolve
mkdir -p "$stamp_dir"

# sha256 over the content of the given files and directories (sorted, so stable).
fingerprint() {
  find "$@" -type f -not -path '*/node_modules/*' -not -path '*/generated/*' -print0 2>/dev/null \
    | sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1
}

# The stage log (cli/stage-log.ts reads it): one line per stage, "name<TAB>ran|cached|failed<TAB>ms".
# start_stage_log begins a new one for this run; without it (npm test) record_stage writes nothing.
stage_log=""
now_ms() { date +%s%3N; }
start_stage_log() {
  stage_log=${ENVOLVE_STAGE_LOG:-$stamp_dir/stages.tsv}
  mkdir -p "$(dirname "$stage_log")"
  : >"$stage_log"
  export ENVOLVE_STAGE_LOG=$stage_log ENVOLVE_UP_STARTED_MS=${ENVOLVE_UP_STARTED_MS:-$(now_ms)}
}
record_stage() { [ -z "$stage_log" ] || printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$stage_log"; }

# Runs "$@" as the stage NAME, recording its wall time (ran, or failed and the script stops).
# usage: timed_stage NAME command...
timed_stage() {
  local name=$1 started status=0; shift
  started=$(now_ms)
  "$@" || status=$?
  record_stage "$name" "$([ "$status" = 0 ] && echo ran || echo failed)" $(($(now_ms) - started))
  return "$status"
}

# The stage a stamp stands for in the stage log (the stamps keep their names, so clones keep their caches).
stage_of_stamp() {
  case $1 in
    deps) echo install ;;
    client) echo 'client generation' ;;
    web) echo build ;;
    *) echo "$1" ;;
  esac
}

# Runs "$@" only when the fingerprint of the inputs named by $2.. differs from the last success,
# as a stage of the stage log; otherwise the stage is recorded as cached.
# usage: when_changed NAME "inputs..." command...
when_changed() {
  local name=$1 inputs=$2; shift 2
  local want have="" started stage
  stage=$(stage_of_stamp "$name")
  started=$(now_ms)
  # shellcheck disable=SC2086
  want=$(fingerprint $inputs)
  [ -f "$stamp_dir/$name" ] && have=$(cat "$stamp_dir/$name")
  if [ "$want" != "$have" ]; then
    timed_stage "$stage" "$@"
    echo "$want" >"$stamp_dir/$name"
  else
    record_stage "$stage" cached $(($(now_ms) - started))
  fi
}

# Runs the given shell commands at the same time (for single-threaded ones, such as tsc, ESLint and
# Prettier, on a machine with more cores than one), then prints each one's output whole, in the order
# given, under its command line; fails if any failed, naming those that did.
# usage: run_concurrently "command one" "command two"...
run_concurrently() {
  local out_dir i line
  local -a pids=() failed=()
  out_dir=$(mktemp -d)
  for i in $(seq 1 $#); do
    bash -c "${!i}" >"$out_dir/$i" 2>&1 &
    pids+=($!)
  done
  for i in $(seq 1 $#); do
    line=${!i}
    wait "${pids[i - 1]}" || failed+=("$line")
    printf '\033[1m--- %s\033[0m\n' "$line"
    cat "$out_dir/$i"
  done
  rm -rf "$out_dir"
  [ ${#failed[@]} = 0 ] || die "failed: $(printf '[%s] ' "${failed[@]}")"
}

check_node() {
  command -v node >/dev/null || die "Node.js >= 20.9 is required (Debian: apt-get install nodejs, or use nvm)."
  node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=9)?0:1)' \
    || die "Node.js >= 20.9 is required; this is $(node --version)."
}

# Install scripts: only better-sqlite3's is needed (no prebuilt binary is reachable, so node-gyp compiles
# it; JOBS=max lets its make use every core). The others are skipped on purpose, and package.json's
# "allowScripts" records the same choice: cpu-features and ssh2 build optional accelerators of dockerode's
# SSH transport, which Envolve does not use (ssh2 falls back to pure JS); prisma and @prisma/engines would
# download engines from Prisma's unreachable binary host (scripts/db-generate.ts needs none); esbuild's only
# re-checks the platform package npm installs as an optional dependency; protobufjs's prints a notice.
install_dependencies() {
  step "Installing npm dependencies (npm ci, then compiling better-sqlite3)"
  npm ci --no-audit --no-fund --ignore-scripts
  JOBS=max npm rebuild better-sqlite3
}
generate_client() { step "Generating the Prisma clients (SQLite, PostgreSQL)"; npx tsx scripts/db-generate.ts >/dev/null; }
build_web() { step "Building the dashboard (next build)"; npx next build; }

prepare() {
  check_node
  when_changed deps "package.json package-lock.json" install_dependencies
  { [ -d lib/db/generated ] && [ -d lib/db/generated-pg ]; } || rm -f "$stamp_dir/client"
  when_changed client "prisma/schema.prisma package-lock.json" generate_client
}

prepare_web_build() {
  [ -f .next/BUILD_ID ] || rm -f "$stamp_dir/web"
  when_changed web "app lib next.config.ts postcss.config.mjs instrumentation.ts package-lock.json" build_web
}
