#!/usr/bin/env bash
# Runs the hosted API's Terraform provider (rootlyhq/rootly) against a throwaway Taproot: for each
# directory under probe/ (with probe/provider.tf), apply (rev=1), plan (must be empty), apply changed
# values (rev=2), plan again, destroy. Exits 1 on any failed step or non-empty plan (drift: an
# attribute Taproot answers differently than the provider sent). See tools/terraform/README.md.
#
#   tools/terraform/probe.sh [config-dir-name ...]       (default: every directory under probe/)
#
# ROOTLY_PROVIDER_DIR  a directory holding a terraform-provider-rootly binary, used through
#                      dev_overrides; unset: `terraform init` installs the provider from the
#                      Terraform registry into the plugin cache (TF_PROVIDER_VERSION, default 5.20.1)
# TERRAFORM            the terraform binary (default: terraform on PATH)
# KEEP_LOGS=1          keep the work directory (state, TF_LOG=DEBUG logs) after a passing run
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache="$here/.cache"
terraform=${TERRAFORM:-terraform}
node="$repo/node_modules/.bin/node"
mkdir -p "$cache/plugins"
work=$(mktemp -d "$cache/run.XXXXXX")
taproot_pid=

finish() {
  local rc=$?
  if [ -n "$taproot_pid" ]; then
    kill "$taproot_pid" 2>/dev/null
    # The embedded PostgreSQL stops with the process; wait so its data dir can go.
    wait "$taproot_pid" 2>/dev/null
  fi
  rm -rf "$work/data"
  if [ "$rc" -eq 0 ] && [ "${KEEP_LOGS:-}" != 1 ]; then rm -rf "$work"; else echo "logs and state kept in $work" >&2; fi
  exit "$rc"
}
trap finish EXIT
trap 'exit 130' INT TERM

# Four ports the kernel reports free (API, auth, dispatcher, embedded PostgreSQL).
read -r api_port auth_port dispatcher_port pg_port < <("$node" -e '
  const net = require("node:net");
  Promise.all([0, 1, 2, 3].map(() => new Promise((done) => { const s = net.createServer().listen(0, "127.0.0.1", () => done(s)); })))
    .then((servers) => { console.log(servers.map((s) => s.address().port).join(" ")); servers.forEach((s) => s.close()); });')

token="tf-probe-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
url="http://127.0.0.1:$api_port"
echo "starting Taproot on $url (log: $work/taproot.log)"
(cd "$repo" && PORT=$api_port AUTH_PORT=$auth_port DISPATCHER_PORT=$dispatcher_port EMBEDDED_POSTGRES_PORT=$pg_port HOST=127.0.0.1 \
  DATA_DIR="$work/data" BOOTSTRAP_API_KEY="$token" RATE_LIMIT_READS_PER_MINUTE=100000 RATE_LIMIT_WRITES_PER_MINUTE=100000 \
  exec "$node" -r ./tools/register.js tools/scripts/start.ts) > "$work/taproot.log" 2>&1 &
taproot_pid=$!
for _ in $(seq 1 240); do
  kill -0 "$taproot_pid" 2>/dev/null || { echo "Taproot exited while starting:" >&2; tail -20 "$work/taproot.log" >&2; exit 1; }
  [ "$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $token" "$url/v1/teams")" = 200 ] && break
  sleep 1
done
[ "$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $token" "$url/v1/teams")" = 200 ] || { echo "Taproot did not answer within 240 s" >&2; exit 1; }

export ROOTLY_API_URL="$url" ROOTLY_API_TOKEN="$token" TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1 TF_PLUGIN_CACHE_DIR="$cache/plugins"
if [ -n "${ROOTLY_PROVIDER_DIR:-}" ]; then
  export TF_CLI_CONFIG_FILE="$work/cli.tfrc"
  printf 'provider_installation {\n  dev_overrides {\n    "rootlyhq/rootly" = "%s"\n  }\n  direct {}\n}\n' "$(cd "$ROOTLY_PROVIDER_DIR" && pwd)" > "$TF_CLI_CONFIG_FILE"
fi

failures=()
# step <config> <name> <expected exit codes> terraform-args...
step() {
  local config=$1 name=$2 expected=$3; shift 3
  TF_LOG=DEBUG TF_LOG_PATH="$work/$config.$name.debug.log" "$terraform" "$@" -no-color -input=false > "$work/$config.$name.log" 2>&1
  local rc=$?
  if [[ " $expected " == *" $rc "* ]]; then echo "  ok   $name"; return 0; fi
  if [ "$rc" -eq 2 ] && [[ $name == plan* ]]; then
    echo "  FAIL $name: drift, the plan after apply is not empty:"
    grep -E '^ +[-+~] |->' "$work/$config.$name.log" | grep -v 'rootlyhq/rootly in ' | sed 's/^/         /'
  else
    echo "  FAIL $name (exit $rc):"
    grep -A3 '^Error' "$work/$config.$name.log" | sed 's/^/         /'
  fi
  failures+=("$config/$name")
  return 1
}

configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=($(cd "$here/probe" && ls -d */ | tr -d /))
for config in "${configs[@]}"; do
  echo "$config:"
  mkdir -p "$work/$config"
  cp "$here/probe/provider.tf" "$here/probe/$config"/*.tf "$work/$config/"
  cd "$work/$config" || exit 1
  if [ -z "${ROOTLY_PROVIDER_DIR:-}" ]; then
    sed -i "s|source = \"rootlyhq/rootly\" }|source = \"rootlyhq/rootly\", version = \"${TF_PROVIDER_VERSION:-5.20.1}\" }|" provider.tf
    step "$config" init 0 init || continue
  fi
  step "$config" apply1 0 apply -auto-approve -var rev=1
  step "$config" plan1 0 plan -detailed-exitcode -var rev=1
  step "$config" apply2 0 apply -auto-approve -var rev=2
  step "$config" plan2 0 plan -detailed-exitcode -var rev=2
  step "$config" destroy 0 destroy -auto-approve -var rev=2
done

if [ ${#failures[@]} -gt 0 ]; then
  echo "${#failures[@]} failed: ${failures[*]}"
  exit 1
fi
echo "all passed"
