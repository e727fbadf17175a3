/**
 * `helm lint --strict` of the chart with a set of values. Values the chart suites render must
 * pass it too (`--strict` fails on what a render forgives); they are linted together when the
 * file's tests are done (lintRendered, from test/projects/integration-guard.ts), in one helm
 * process over a copy of the chart per set, since each helm start costs a tenth of a second.
 * Results are remembered (render-store.ts), so a set is linted once for a chart and helm.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { CHART_DIR, defaultValues } from './chart-files.js';
import { runHelm } from './helm-run.js';
import { readStored, writeStored } from './render-store.js';

export type Lint = { status: number | null; output: string };
type Values = Record<string, unknown>;

const lints = new Map<string, Lint>();
const keyOf = (kind: 'lint' | 'lint-with-defaults', values: Values) => JSON.stringify([kind, values]);

function recall(key: string): Lint | undefined {
  const lint = lints.get(key) ?? readStored<Lint>(key);
  if (lint) lints.set(key, lint);
  return lint;
}

function remember(key: string, lint: Lint): Lint {
  lints.set(key, lint);
  writeStored(key, lint);
  return lint;
}

/** `helm lint --strict` of the chart with `values` as the `-f` file: its status and whole output. */
export function helmLint(values: Values = {}): Lint {
  const key = keyOf('lint', values);
  const known = recall(key);
  if (known) return known;
  const run = runHelm(['lint', '--strict', CHART_DIR], values);
  return remember(key, { status: run.status, output: `${run.stdout}${run.stderr}` });
}

/** Rendered value sets of the current file not linted yet in this run. */
const unlinted = new Map<string, Values>();

/** Lints `values` with the file's other rendered sets, when its tests are done. */
export function lintLater(values: Values): void {
  const key = keyOf('lint-with-defaults', values);
  if (recall(key)?.status === 0 || recall(keyOf('lint', values))?.status === 0) return;
  unlinted.set(key, values);
}

const isMap = (v: unknown): v is Values => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `over` on `base` as helm merges a `-f` file over the chart's values.yaml: maps key by key,
 * anything else replaced, and null deleting a key the defaults have (a null for a key they lack
 * stays, for the schema to judge).
 */
export function mergeValues(base: Values, over: Values): Values {
  const merged: Values = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (value === null && key in base) delete merged[key];
    else merged[key] = isMap(value) && isMap(merged[key]) ? mergeValues(merged[key], value) : value;
  }
  return merged;
}

/** Whether one chart's section of `helm lint --strict` output fails it: --strict fails on a warning as on an error. */
export function refusedBy(section: string): boolean {
  return /^\[(ERROR|WARNING)\]/m.test(section);
}

/**
 * Lints every set lintLater was given since the last call, in one `helm lint --strict` over one
 * copy of the chart per set, each copy's values.yaml the set merged over the defaults; throws
 * naming the sets helm refuses, with its messages. Returns how many sets it linted.
 */
export function lintRendered(): number {
  if (unlinted.size === 0) return 0;
  const sets = [...unlinted];
  unlinted.clear();
  const parent = mkdtempSync(join(tmpdir(), 'agent-manager-lint-'));
  try {
    const defaults = defaultValues();
    const dirs = sets.map(([, values], i) => {
      const dir = join(parent, String(i), 'agent-manager');
      cpSync(CHART_DIR, dir, { recursive: true });
      writeFileSync(join(dir, 'values.yaml'), stringify(mergeValues(defaults, values)));
      return dir;
    });
    const run = runHelm(['lint', '--strict', ...dirs]);
    const sections = new Map<string, string>();
    for (const section of run.stdout.split(/^==> Linting /m).slice(1)) {
      const newline = section.indexOf('\n');
      sections.set(section.slice(0, newline).trim(), section.slice(newline + 1));
    }
    const refused: string[] = [];
    sets.forEach(([key, values], i) => {
      const output = sections.get(dirs[i]!);
      if (output === undefined) {
        throw new Error(`helm lint printed nothing for a chart it was given (exit ${run.status}):\n${run.stdout}${run.stderr}`);
      }
      const status = refusedBy(output) ? 1 : 0;
      remember(key, { status, output });
      if (status !== 0) refused.push(`${JSON.stringify(values)}\n${output}`);
    });
    if (refused.length > 0) throw new Error(`helm lint --strict refuses values helm template renders:\n${refused.join('\n')}`);
    if (run.status !== 0) throw new Error(`helm lint failed (exit ${run.status}) with no chart refused:\n${run.stdout}${run.stderr}`);
    return sets.length;
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
}
