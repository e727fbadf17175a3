#!/usr/bin/env bash
# Where one vitest project's CPU goes (docs/development.md, "Suite cost"): runs
# `vitest run --project PROJECT [files…]` under /usr/bin/time with every external tool the tests
# start behind a shim that appends its CPU to OUT/tools.log, and every Node process (workers,
# helpers, children) appending its own CPU at exit to OUT/node.log; then sums them (sum.mjs).
# Usage: bash test/cost/measure.sh OUT PROJECT [vitest arguments…]
set -u
out=$(realpath -m "$1") project=$2; shift 2
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
mkdir -p "$out"; rm -f "$out"/{tools,node,files}.log
# The shims live in one place and keep their mtime, so the chart render store (named by helm's
# file) stays warm from one measured run to the next.
# A tool started with an environment of its own (git by the bare repositories) logs to the shims'
# own file, added to the run's at the end.
shims=$repo/node_modules/.cache/agent-manager-cost/shim
mkdir -p "$shims"; rm -f "$shims/../tools.log"
shim() { # name real-path kind(exec|server)
  local body
  if [ "$3" = exec ]; then
    body="#!/bin/sh
exec /usr/bin/time -a -o \"\${COST_TOOLS_LOG:-$shims/../tools.log}\" -f \"$1 \${COST_FILE:--} %e %U %S\" $2 \"\$@\""
  else # a server: forward SIGTERM to it, so time reports its CPU when the test stops it
    body="#!/bin/bash
/usr/bin/time -a -o \"\${COST_TOOLS_LOG:-$shims/../tools.log}\" -f \"$1 \${COST_FILE:--} %e %U %S\" $2 \"\$@\" &
tp=\$!
trap 'kill -TERM \$(pgrep -P \$tp) 2>/dev/null' TERM INT
wait \$tp; wait \$tp"
  fi
  if [ "$(cat "$shims/$1" 2>/dev/null)" != "$body" ]; then printf '%s\n' "$body" > "$shims/$1"; chmod +x "$shims/$1"; fi
}
export PATH=$repo/node_modules/.bin:$PATH
for tool in git kubectl htpasswd promtool curl; do
  real=$(command -v "$tool") && shim "$tool" "$real" exec
done
for tool in docker-registry prometheus; do
  real=$(command -v "$tool") && shim "$tool" "$real" server
done
helm=${HELM:-$(readlink -f .cache/test-tools/bin/helm)}
[ -x "$helm" ] && shim helm "$helm" exec && export HELM=$shims/helm
export PATH=$shims:$PATH COST_TOOLS_LOG=$out/tools.log COST_NODE_LOG=$out/node.log COST_FILES_LOG=$out/files.log
echo "load before: $(cat /proc/loadavg)" > "$out/info"
NODE_OPTIONS="--import $repo/test/cost/node-usage.mjs" /usr/bin/time -f '%e wall %U user %S sys' -o "$out/time" \
  vitest run --config test/cost/vitest.cost.config.ts --project "$project" --reporter=dot "$@" > "$out/log" 2>&1
echo "exit $? load after: $(cat /proc/loadavg)" >> "$out/info"
cat "$shims/../tools.log" >> "$out/tools.log" 2>/dev/null
cat "$out/info"
node test/cost/sum.mjs "$out"
