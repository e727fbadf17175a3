/**
 * The chart rendered by the real helm (v4; scripts/test-setup.mjs installs it into
 * .cache/test-tools/bin, HELM overrides it): `helm template` with the values on stdin, its
 * documents parsed, and helm's own message when it refuses them (a schema error or a
 * template's `fail`); values it renders must pass `helm lint --strict` too, linted beside the
 * tests that go on (the file fails when its tests are done if one does not). Renders and
 * lints are remembered by their inputs for one test run (test/global-setup/render-cache.ts),
 * so the suites rendering the same values, in whichever worker, run helm once.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { parseAllDocuments, parse as parseYaml, stringify } from 'yaml';
import { smallSpawn } from '../../src/testing/small-spawn.js';
import { testTool } from '../../src/testing/test-tools.js';
import { CHART_DIR } from './chart-files.js';
import { RENDER_CACHE_ENV } from '../global-setup/render-cache.js';

/** A Kubernetes object as rendered. */
export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [key: string]: unknown;
}

/** What one render produced: every object, in helm's install order. */
export interface Rendered {
  manifests: Manifest[];
}

export interface RenderOptions {
  releaseName?: string;
  namespace?: string;
  /** Render as if Chart.yaml had this version (a long pre-release, say). */
  chartVersion?: string;
}

/** helm refused the values: `reason` is its message without the location prefix. */
export class HelmRefusal extends Error {
  constructor(readonly output: string, readonly reason: string) {
    super(output);
  }
}

let binary: string | undefined;
function helmBinary(): string {
  binary ??= process.env.HELM || testTool('helm');
  if (!binary) throw new Error('helm v4 is not installed: run `node scripts/test-setup.mjs` (npm test does), or set HELM');
  return binary;
}

/**
 * Runs helm with `values` as the `-f -` file; its exit status and output. Without Go's garbage
 * collector (GOGC=off): a run lives a tenth of a second and stays near 60 MB, and collecting
 * was a quarter of its CPU.
 */
export function runHelm(
  args: readonly string[], values: Record<string, unknown> = {},
): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(helmBinary(), [...args, '-f', '-'], {
    input: stringify(values), encoding: 'utf8', timeout: 60_000, maxBuffer: 16 << 20,
    env: { ...process.env, GOGC: 'off' },
  });
  if (run.error) throw run.error;
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** `run` on a temporary copy of the chart whose Chart.yaml says `version`. */
function withChartVersion<T>(version: string, run: (chartDir: string) => T): T {
  const parent = mkdtempSync(join(tmpdir(), 'agent-manager-chart-'));
  try {
    const dir = join(parent, 'agent-manager');
    cpSync(CHART_DIR, dir, { recursive: true });
    const chart = parseYaml(readFileSync(join(dir, 'Chart.yaml'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, 'Chart.yaml'), stringify({ ...chart, version }));
    return run(dir);
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
}

/** The message of a refusal: a template's `fail` text, or helm's list of schema errors. */
function reasonOf(stderr: string): string {
  const failed = /execution error at \([^)]*\): (.*)/.exec(stderr);
  if (failed) return failed[1]!.trim();
  return stderr.replace(/^Error: /, '').trim();
}

const renders = new Map<string, Rendered | HelmRefusal>();

/** What a render left on disk for the other workers of this run: the manifests or helm's refusal. */
type Stored = { manifests: Manifest[] } | { refusal: string };

/** The run's render store (set by the global set-up), or undefined outside vitest. */
function storedPath(key: string): string | undefined {
  const dir = process.env[RENDER_CACHE_ENV];
  return dir ? join(dir, `${createHash('sha256').update(key).digest('hex')}.json`) : undefined;
}

function readStored<T>(key: string): T | undefined {
  const path = storedPath(key);
  if (!path) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

function writeStored(key: string, stored: unknown): void {
  const path = storedPath(key);
  if (!path) return;
  // Written whole, then renamed: a worker reading at the same moment sees all of it or nothing.
  const partial = `${path}.${process.pid}.tmp`;
  writeFileSync(partial, JSON.stringify(stored));
  renameSync(partial, path);
}

function fromStore(key: string): Rendered | HelmRefusal | undefined {
  const stored = readStored<Stored>(key);
  if (!stored) return undefined;
  return 'refusal' in stored ? new HelmRefusal(stored.refusal, reasonOf(stored.refusal)) : { manifests: stored.manifests };
}

function toStore(key: string, result: Rendered | HelmRefusal): void {
  writeStored(key, result instanceof HelmRefusal ? { refusal: result.output } : { manifests: result.manifests });
}

function renderOrRefusal(values: Record<string, unknown>, options: RenderOptions): Rendered | HelmRefusal {
  const key = JSON.stringify([values, options]);
  let result = renders.get(key) ?? fromStore(key);
  if (result) renders.set(key, result);
  if (!result) {
    const template = (chart: string) => runHelm(['template', options.releaseName ?? 'agent-manager', chart, '-n', options.namespace ?? 'agent-platform'], values);
    const run = options.chartVersion ? withChartVersion(options.chartVersion, template) : template(CHART_DIR);
    result =
      run.status === 0 ? { manifests: parseManifests(run.stdout) } : new HelmRefusal(run.stderr, reasonOf(run.stderr));
    // Values helm renders must pass its linter too: --strict fails on what a render forgives.
    if (!(result instanceof HelmRefusal) && !options.chartVersion) lintBeside(values);
    renders.set(key, result);
    toStore(key, result);
  }
  return result;
}

function parseManifests(text: string): Manifest[] {
  const manifests: Manifest[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0) throw new Error(`helm template printed YAML that does not parse: ${doc.errors[0]!.message}`);
    const obj = doc.toJS() as Manifest | null;
    if (obj !== null) manifests.push(obj);
  }
  return manifests;
}

/** `helm template` of the chart with `values` over its defaults; throws the HelmRefusal when helm refuses. */
export function helmTemplate(values: Record<string, unknown> = {}, options: RenderOptions = {}): Rendered {
  const result = renderOrRefusal(values, options);
  if (result instanceof HelmRefusal) throw result;
  return structuredClone(result);
}

/** helm's refusal of `values`; throws when the chart renders. */
export function helmRefusal(values: Record<string, unknown>, options: RenderOptions = {}): HelmRefusal {
  const result = renderOrRefusal(values, options);
  if (result instanceof HelmRefusal) return result;
  throw new Error(`helm rendered the chart with ${JSON.stringify(values)}, but it must refuse`);
}

type Lint = { status: number | null; output: string };
const lints = new Map<string, Lint>();

const lintKey = (values: Record<string, unknown>) => JSON.stringify(['lint', values]);
function remembered(values: Record<string, unknown>): Lint | undefined {
  const lint = lints.get(lintKey(values)) ?? readStored<Lint>(lintKey(values));
  if (lint) lints.set(lintKey(values), lint);
  return lint;
}
function remember(values: Record<string, unknown>, lint: Lint): Lint {
  lints.set(lintKey(values), lint);
  writeStored(lintKey(values), lint);
  return lint;
}

/**
 * `helm lint --strict` of the chart with `values`: its status and output. Remembered like the
 * renders, so values a suite lints and renders (or that two suites render) are linted once a run.
 */
export function helmLint(values: Record<string, unknown> = {}): Lint {
  const known = remembered(values);
  if (known) return known;
  const run = runHelm(['lint', '--strict', CHART_DIR], values);
  return remember(values, { status: run.status, output: `${run.stdout}${run.stderr}` });
}

/** Lints of rendered values still running; the file's tests go on meanwhile. */
const linting = new Map<string, Promise<{ values: Record<string, unknown>; lint: Lint }>>();
afterAll(async () => {
  const refused = (await Promise.all(linting.values())).filter(({ lint }) => lint.status !== 0);
  if (refused.length > 0) {
    throw new Error(`helm lint --strict refuses values helm template renders:\n${
      refused.map(({ values, lint }) => `${JSON.stringify(values)}\n${lint.output}`).join('\n')}`);
  }
}, 120_000);

/** `helm lint --strict` of rendered `values`, in a process beside the tests, checked when they are done. */
function lintBeside(values: Record<string, unknown>): void {
  if (remembered(values) || linting.has(lintKey(values))) return;
  const run = smallSpawn(helmBinary(), ['lint', '--strict', CHART_DIR, '-f', '-'], {
    input: stringify(values), timeoutMs: 60_000, env: { ...process.env, GOGC: 'off' },
  });
  const linted = run.then((r) => {
    const output = `${r.stdout.toString('utf8')}${r.stderr.toString('utf8')}${r.error ?? ''}`;
    return { values, lint: remember(values, { status: r.code, output }) };
  });
  linted.catch(() => undefined); // awaited, and reported, by the afterAll above
  linting.set(lintKey(values), linted);
}

/** The one manifest of `kind` (and `name`, when given); throws when there is not exactly one. */
export function one(rendered: Rendered, kind: string, name?: string): Manifest {
  const found = rendered.manifests.filter((m) => m.kind === kind && (name === undefined || m.metadata.name === name));
  if (found.length !== 1) throw new Error(`want one ${kind}${name ? ` ${name}` : ''}, found ${found.length}`);
  return found[0]!;
}
