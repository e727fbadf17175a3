#!/usr/bin/env bash
# Lints and renders helm/agent-manager with the real helm binary: `helm lint` and
# `helm template` for the defaults and every hack/helm-values/ok-*.yaml (which must
# render), and every hack/helm-values/fail-*.yaml (which must be refused).
# Machines without helm skip with a note and exit 0: the same value sets are rendered
# by test/chart-package (our Go-template subset renderer) on every machine.
#
#   hack/helm-checks.sh            # uses helm from PATH
#   HELM=/path/to/helm hack/helm-checks.sh
set -euo pipefail
cd "$(dirname "$0")/.."

HELM="${HELM:-helm}"
CHART=helm/agent-manager
VALUES_DIR=hack/helm-values

if ! command -v "$HELM" >/dev/null 2>&1; then
  echo "helm-checks: helm is not installed; skipping helm lint and helm template (test/chart-package renders the chart without it)"
  exit 0
fi

failures=0
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

echo "== helm lint (defaults)"
"$HELM" lint --strict "$CHART" || failures=$((failures + 1))

echo "== helm template (defaults)"
"$HELM" template agent-manager "$CHART" -n agent-platform >"$out/default.yaml" || failures=$((failures + 1))

for values in "$VALUES_DIR"/ok-*.yaml; do
  name="$(basename "$values" .yaml)"
  echo "== helm lint + template: $name (must render)"
  "$HELM" lint --strict "$CHART" -f "$values" || failures=$((failures + 1))
  "$HELM" template agent-manager "$CHART" -n agent-platform -f "$values" >"$out/$name.yaml" || failures=$((failures + 1))
done

for values in "$VALUES_DIR"/fail-*.yaml; do
  name="$(basename "$values" .yaml)"
  echo "== helm template: $name (must be refused)"
  if "$HELM" template agent-manager "$CHART" -n agent-platform -f "$values" >/dev/null 2>"$out/$name.err"; then
    echo "helm-checks: $name rendered, but it must be refused"
    failures=$((failures + 1))
  else
    sed 's/^/    /' "$out/$name.err"
  fi
done

if [ "$failures" -ne 0 ]; then
  echo "helm-checks: $failures check(s) failed"
  exit 1
fi
echo "helm-checks: all passed"
