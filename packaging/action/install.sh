#!/usr/bin/env bash
# The GitHub Action's first step (action.yml): installs the PyPI package
# redis-lua-lint into a virtual environment under $RUNNER_TEMP and puts its
# `redis-lua` on the PATH of the job's later steps ($GITHUB_PATH).
#
# Environment, as GitHub sets it for the step:
#   INPUT_VERSION  the version to install; empty: the workspace version in
#                  this repository's Cargo.toml, the release the action is
#                  pinned to
#   RUNNER_TEMP    a folder for the virtual environment
#   GITHUB_PATH    the file whose lines are prepended to later steps' PATH
# pip's own variables apply: .ci/packages installs the wheel it has just built
# with PIP_NO_INDEX=1 and PIP_FIND_LINKS.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
version="${INPUT_VERSION:-}"
if [ -z "$version" ]; then
    version="$(sed -n '/^\[workspace\.package\]/,/^\[/s/^version = "\(.*\)"$/\1/p' "$root/Cargo.toml")"
fi
if [ -z "$version" ]; then
    echo "::error::redis-lua: no version given and none found in $root/Cargo.toml" >&2
    exit 1
fi

python="$(command -v python3 || command -v python || true)"
if [ -z "$python" ]; then
    echo "::error::redis-lua: the action installs redis-lua-lint with pip and needs Python 3 (actions/setup-python)" >&2
    exit 1
fi

venv="$RUNNER_TEMP/redis-lua-lint"
"$python" -m venv "$venv"
# Windows' virtual environments keep their commands in Scripts/.
bin="$venv/bin"
[ -d "$bin" ] || bin="$venv/Scripts"
"$bin/python" -m pip install --quiet --disable-pip-version-check "redis-lua-lint==$version"
echo "$bin" >> "$GITHUB_PATH"
"$bin/redis-lua" --version
