#!/usr/bin/env bash
# The GitHub Action's check step (action.yml): runs `redis-lua check` on the
# inputs, once for the log (human output) and once into a SARIF file, writes
# the step's outputs, and exits with the check's status, so that a failed
# check fails the job (the upload step runs all the same).
#
# Environment, as GitHub sets it for the step (action.yml passes the inputs):
#   INPUT_PATHS             files and folders, separated by whitespace (default .)
#   INPUT_SERVERS           servers, separated by whitespace or commas
#   INPUT_FAIL_ON_WARNINGS  `true`: --deny-warnings
#   INPUT_ARGS              more options, separated by whitespace
#   INPUT_SARIF_FILE        the SARIF file (default $RUNNER_TEMP/redis-lua.sarif)
#   GITHUB_OUTPUT           the file the step's outputs go to
#   REDIS_LUA               the command to run (default: redis-lua on the PATH)
# Outputs: exit-code, errors, warnings (results of each level in the SARIF
# file), sarif-file (empty when redis-lua wrote none).
set -euo pipefail
# Inputs are split into words; a `*` in them stays a `*`.
set -f

redis_lua="${REDIS_LUA:-redis-lua}"
sarif="${INPUT_SARIF_FILE:-${RUNNER_TEMP:?}/redis-lua.sarif}"

options=()
servers="${INPUT_SERVERS:-}"
for server in ${servers//,/ }; do
    options+=(--server "$server")
done
case "${INPUT_FAIL_ON_WARNINGS:-false}" in
    true) options+=(--deny-warnings) ;;
    false | "") ;;
    *) echo "::error::redis-lua: fail-on-warnings is \`true\` or \`false\`, not \`$INPUT_FAIL_ON_WARNINGS\`" >&2; exit 2 ;;
esac
# shellcheck disable=SC2206 # split on purpose, globbing is off
options+=(${INPUT_ARGS:-})
# shellcheck disable=SC2206
paths=(${INPUT_PATHS:-.})
[ "${#paths[@]}" -gt 0 ] || paths=(.)

# The options and the paths, as words (`${a[@]+...}`: macOS's bash 3.2 calls
# an empty array unbound).
arguments=(${options[@]+"${options[@]}"} "${paths[@]}")

# For the log; the SARIF run below gives the same status.
"$redis_lua" check "${arguments[@]}" || true

mkdir -p "$(dirname "$sarif")"
status=0
"$redis_lua" check --format sarif "${arguments[@]}" > "$sarif" || status=$?

# Counts the results of each level; a file that is not SARIF counts nothing.
python="$(command -v python3 || command -v python || true)"
read -r errors warnings < <("${python:-python3}" - "$sarif" <<'PY' || echo "0 0"
import json, sys
try:
    with open(sys.argv[1], encoding="utf-8") as file:
        runs = json.load(file)["runs"]
except (OSError, ValueError, KeyError):
    print(0, 0)
    sys.exit()
levels = [result.get("level", "warning") for run in runs for result in run.get("results", [])]
print(levels.count("error"), levels.count("warning"))
PY
)
[ -s "$sarif" ] || sarif=""
{
    echo "exit-code=$status"
    echo "errors=$errors"
    echo "warnings=$warnings"
    echo "sarif-file=$sarif"
} >> "${GITHUB_OUTPUT:?}"
exit "$status"
