/**
 * The chart rendered by the real helm (v4; scripts/test-setup.mjs installs it into
 * .cache/test-tools/bin, HELM overrides it): `helm template` with the values on stdin, its
 * documents parsed, and helm's own message when it refuses them (a schema error or a
 * template's `fail`); values it renders must pass `helm lint --strict` too (helm-lint.ts: the
 * file fails when its tests are done if one does not). Renders are remembered by their inputs
 * (render-store.ts), so the suites rendering the same values, in whichever worker or later run
 * of the same chart and helm, run helm once.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments, parse as parseYaml, stringify } from 'yaml';
import { CHART_DIR } from './chart-files.js';
import { lintLater } from './helm-lint.js';
import { runHelm } from './helm-run.js';
import { readStored, writeStored } from './render-store.js';

export { helmLint } from './helm-lint.js';
export { runHelm } from './helm-run.js';

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
    if (!(result instanceof HelmRefusal) && !options.chartVersion) lintLater(values);
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

/** The one manifest of `kind` (and `name`, when given); throws when there is not exactly one. */
export function one(rendered: Rendered, kind: string, name?: string): Manifest {
  const found = rendered.manifests.filter((m) => m.kind === kind && (name === undefined || m.metadata.name === name));
  if (found.length !== 1) throw new Error(`want one ${kind}${name ? ` ${name}` : ''}, found ${found.length}`);
  return found[0]!;
}
