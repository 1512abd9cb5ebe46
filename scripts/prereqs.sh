#!/usr/bin/env bash
# Makes sure the machine services Envolve needs are present and running.
#
#   bash scripts/prereqs.sh docker [chromium] [postgres] [python3]
#
# Idempotent and quiet when everything is already there; whatever it does is
# reported on stderr. Software comes only from Debian's apt (this machine kind
# reaches no other host). When it cannot act (not root, not Debian) it stops
# and says exactly what to install and start.
set -euo pipefail

say() { echo "prereqs: $*" >&2; }
die() { echo "prereqs: ERROR: $*" >&2; exit 1; }

can_apt() { [[ $(id -u) -eq 0 && -f /etc/debian_version ]] && command -v apt-get >/dev/null; }

APT_UPDATED=0
apt_install() {
  can_apt || die "missing: $*. Install it as root on Debian: apt-get install -y $*"
  if [[ $APT_UPDATED -eq 0 ]]; then
    say "apt-get update"
    apt-get update -qq >&2
    APT_UPDATED=1
  fi
  say "apt-get install -y $*"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >&2
}

DOCKERD_LOG=/var/log/envolve-dockerd.log
DOCKER_WAIT_SEC=${ENVOLVE_DOCKER_WAIT_SEC:-60}

docker_answers() { docker info >/dev/null 2>&1; }

ensure_docker() {
  # debootstrap builds the offline base image (lib/sandbox/base-image.ts); jq runs the artifact
  # probes on the host in lib/synth/procedural/artifact-probe.test.ts, as it does in the image.
  command -v debootstrap >/dev/null || apt_install debootstrap
  command -v jq >/dev/null || apt_install jq
  command -v docker >/dev/null || apt_install docker.io
  docker_answers && return 0

  if [[ -n "${DOCKER_HOST:-}" && "${DOCKER_HOST}" != "unix:///var/run/docker.sock" ]]; then
    die "DOCKER_HOST=${DOCKER_HOST} does not answer 'docker info'; start that engine or unset DOCKER_HOST"
  fi
  command -v dockerd >/dev/null || apt_install docker.io
  [[ $(id -u) -eq 0 ]] || die "the Docker engine is not running and starting it needs root:
  sudo dockerd --bridge=none --iptables=false >$DOCKERD_LOG 2>&1 &"

  # --bridge=none: sandboxes need no network, and these machines must send no
  # traffic to private ranges (the default bridge is 172.17.0.0/16).
  say "starting dockerd --bridge=none --iptables=false (log: $DOCKERD_LOG)"
  # setsid: the engine outlives this script's process group (Ctrl-C on `npm run up`, a CI
  # step's cleanup); it is a machine service, not a child of whoever first needed it.
  setsid dockerd --bridge=none --iptables=false >>"$DOCKERD_LOG" 2>&1 </dev/null &
  local pid=$! waited=0
  until docker_answers; do
    kill -0 "$pid" 2>/dev/null || die "dockerd exited during start-up; last lines of $DOCKERD_LOG:
$(tail -n 20 "$DOCKERD_LOG")"
    (( waited >= DOCKER_WAIT_SEC )) && die "dockerd (pid $pid) did not answer on /var/run/docker.sock within ${DOCKER_WAIT_SEC}s; see $DOCKERD_LOG"
    sleep 1
    waited=$((waited + 1))
  done
  say "dockerd is up (pid $pid)"
}

# gVisor's runsc as a second sandbox runtime (ENVOLVE_SANDBOX_RUNTIME=runsc), registered with the
# running engine through daemon.json's "runtimes" and a SIGHUP (runtimes reload without a restart,
# so running containers are untouched). --network=none: gVisor's own network stack is off, as
# Docker's is for every sandbox. A machine that cannot have it keeps runc; the tests say so.
DAEMON_JSON=${ENVOLVE_DOCKER_DAEMON_JSON:-/etc/docker/daemon.json}
runsc_registered() { docker info --format '{{json .Runtimes}}' 2>/dev/null | grep -q '"runsc"'; }

ensure_runsc() {
  runsc_registered && return 0
  if ! command -v runsc >/dev/null; then
    can_apt || { say "gVisor (runsc) is not installed and cannot be from here; sandboxes run under runc only (as root on Debian: apt-get install -y runsc)"; return 0; }
    apt_install runsc || { say "apt could not install runsc; sandboxes run under runc only"; return 0; }
  fi
  [[ $(id -u) -eq 0 ]] || { say "runsc is installed but not registered with the engine; as root: bash scripts/prereqs.sh docker"; return 0; }
  local dockerd_pid
  dockerd_pid=$(pidof dockerd || true)
  [[ -n "$dockerd_pid" ]] || { say "dockerd does not run on this machine; register runsc with the engine at ${DOCKER_HOST:-its host}"; return 0; }
  mkdir -p "$(dirname "$DAEMON_JSON")"
  say "registering runsc ($(command -v runsc) --network=none) in $DAEMON_JSON and reloading dockerd (SIGHUP)"
  RUNSC_PATH=$(command -v runsc) node -e '
    const fs = require("node:fs");
    const file = process.argv[1];
    const config = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8") || "{}") : {};
    config.runtimes = { ...config.runtimes, runsc: { path: process.env.RUNSC_PATH, runtimeArgs: ["--network=none"] } };
    fs.writeFileSync(file, JSON.stringify(config, null, 2) + "\n");
  ' "$DAEMON_JSON"
  kill -HUP $dockerd_pid
  local waited=0
  until runsc_registered; do
    (( waited >= 10 )) && die "dockerd did not list runsc after a SIGHUP; see $DOCKERD_LOG and $DAEMON_JSON"
    sleep 1
    waited=$((waited + 1))
  done
  say "runsc registered: $(docker info --format '{{range $name, $_ := .Runtimes}}{{$name}} {{end}}')"
}

ensure_chromium() {
  [[ -x /usr/bin/chromium ]] && return 0
  apt_install chromium
  [[ -x /usr/bin/chromium ]] || die "apt installed chromium but /usr/bin/chromium is missing"
}

ensure_postgres() {
  command -v pg_ctlcluster >/dev/null || apt_install postgresql
  if pg_lsclusters -h 2>/dev/null | awk '$4 == "online" { found = 1 } END { exit !found }'; then
    return 0
  fi
  [[ $(id -u) -eq 0 ]] || die "PostgreSQL is installed but no cluster is running; as root: pg_ctlcluster 15 main start"
  local cluster
  cluster=$(pg_lsclusters -h | awk 'NR == 1 { print $1 " " $2 }')
  [[ -n "$cluster" ]] || die "no PostgreSQL cluster exists; create one: pg_createcluster 15 main --start"
  say "pg_ctlcluster $cluster start"
  # shellcheck disable=SC2086 # "version name" are two arguments
  pg_ctlcluster $cluster start >&2
}

# Debian's python3 runs the trainer client's tests and the reference trainer (standard library
# only), as /usr/bin/python3 whatever else is on PATH (pyenv, conda).
ensure_python3() {
  [[ -x /usr/bin/python3 ]] && return 0
  apt_install python3
  [[ -x /usr/bin/python3 ]] || die "apt installed python3 but /usr/bin/python3 is missing"
}

# The role and database the PostgreSQL half of `npm test` uses (ENVOLVE_TEST_PG_URL in scripts/test.sh).
# The role may create databases: each test file migrates a fresh one and drops it afterwards.
ensure_postgres_test_role() {
  if [[ $(id -u) -eq 0 ]]; then
    su postgres -c "psql -qAt -v ON_ERROR_STOP=1" >/dev/null <<'SQL'
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'envolve') THEN
    CREATE ROLE envolve LOGIN CREATEDB PASSWORD 'envolve';
  END IF;
END $$;
SELECT 'CREATE DATABASE envolve_test OWNER envolve'
  WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'envolve_test') \gexec
SQL
  else
    psql -qAt -c "SELECT 1" "postgresql://envolve:envolve@127.0.0.1:5432/envolve_test" >/dev/null ||
      die "the test role is missing; as the postgres user: CREATE ROLE envolve LOGIN CREATEDB PASSWORD 'envolve'; CREATE DATABASE envolve_test OWNER envolve"
  fi
}

[[ $# -gt 0 ]] || die "usage: bash scripts/prereqs.sh docker [chromium] [postgres] [python3]"
for want in "$@"; do
  case "$want" in
    docker) ensure_docker && ensure_runsc ;;
    chromium) ensure_chromium ;;
    postgres | postgresql) ensure_postgres && ensure_postgres_test_role ;;
    python3) ensure_python3 ;;
    *) die "unknown prerequisite '$want' (known: docker, chromium, postgres, python3)" ;;
  esac
done
