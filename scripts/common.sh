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

# Runs "$@" only when the fingerprint of the inputs named by $2.. differs from the last success.
# usage: when_changed NAME "inputs..." command...
when_changed() {
  local name=$1 inputs=$2; shift 2
  local want have=""
  # shellcheck disable=SC2086
  want=$(fingerprint $inputs)
  [ -f "$stamp_dir/$name" ] && have=$(cat "$stamp_dir/$name")
  if [ "$want" != "$have" ]; then
    "$@"
    echo "$want" >"$stamp_dir/$name"
  fi
}

check_node() {
  command -v node >/dev/null || die "Node.js >= 20.9 is required (Debian: apt-get install nodejs, or use nvm)."
  node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=9)?0:1)' \
    || die "Node.js >= 20.9 is required; this is $(node --version)."
}

install_dependencies() { step "Installing npm dependencies (npm ci)"; npm ci --no-audit --no-fund; }
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
