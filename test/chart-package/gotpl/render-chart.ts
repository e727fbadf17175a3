/**
 * A `helm template` stand-in for tests on machines without helm: loads a chart
 * directory, coalesces override values onto values.yaml the way Helm does (maps merge,
 * everything else replaces, null deletes), renders every template with the chart's
 * named templates in reach, and parses the YAML documents. It covers the template
 * subset our own chart uses (parse.ts); hack/helm-checks.sh runs the real helm where
 * it is installed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import { Executor } from './exec.js';
import { parseTemplate, type Node } from './parse.js';

type Values = Record<string, unknown>;

/** A Kubernetes object as rendered. */
export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [key: string]: unknown;
}

/** What one render produced. */
export interface Rendered {
  /** Every object, in template-file order. */
  manifests: Manifest[];
  /** Raw text per template file (documents not yet split). */
  files: Record<string, string>;
  notes: string;
}

export interface RenderOptions {
  releaseName?: string;
  namespace?: string;
  values?: Values;
  /** Render as if Chart.yaml had this version (a long pre-release, say). */
  chartVersion?: string;
}

function isMap(v: unknown): v is Values {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Helm's coalescing of user values onto chart defaults. */
export function coalesce(defaults: Values, overrides: Values): Values {
  const out: Values = structuredClone(defaults);
  for (const [key, value] of Object.entries(overrides)) {
    if (value === null) delete out[key];
    else if (isMap(value) && isMap(out[key])) out[key] = coalesce(out[key] as Values, value);
    else out[key] = structuredClone(value);
  }
  return out;
}

/** Render `chartDir` like `helm template <release> <chartDir> -n <namespace> -f <values>`. */
export function renderChart(chartDir: string, options: RenderOptions = {}): Rendered {
  const chart = parseYaml(readFileSync(join(chartDir, 'Chart.yaml'), 'utf8')) as Values;
  const defaults = (parseYaml(readFileSync(join(chartDir, 'values.yaml'), 'utf8')) ?? {}) as Values;
  const values = coalesce(defaults, options.values ?? {});
  const data = {
    Values: values,
    Release: { Name: options.releaseName ?? 'agent-manager', Namespace: options.namespace ?? 'agent-platform', Service: 'Helm', IsInstall: true },
    Chart: {
      Name: chart.name,
      Version: options.chartVersion ?? chart.version,
      AppVersion: chart.appVersion,
      Description: chart.description,
      Annotations: chart.annotations ?? {},
    },
    Capabilities: { KubeVersion: { Version: 'v1.32.0' } },
  };
  const dir = join(chartDir, 'templates');
  const names = readdirSync(dir).filter((n) => /\.(ya?ml|tpl|txt)$/.test(n)).sort();
  const parsed = new Map(names.map((n) => [n, parseTemplate(readFileSync(join(dir, n), 'utf8'), n)]));
  const defines = new Map<string, Node[]>();
  for (const p of parsed.values()) for (const [k, v] of p.defines) defines.set(k, v);

  const files: Record<string, string> = {};
  const manifests: Manifest[] = [];
  let notes = '';
  for (const [name, p] of parsed) {
    if (name.startsWith('_')) continue;
    // Helm blanks every "<no value>"; printValue already prints nil as "".
    const text = new Executor(defines, name).render(p.nodes, data);
    if (name === 'NOTES.txt') {
      notes = text;
      continue;
    }
    files[name] = text;
    for (const doc of parseAllDocuments(text)) {
      if (doc.errors.length > 0) throw new Error(`${name}: the rendered YAML does not parse: ${doc.errors[0]!.message}\n${text}`);
      const obj = doc.toJS() as Manifest | null;
      if (obj === null) continue;
      if (!obj.apiVersion || !obj.kind || !obj.metadata?.name) throw new Error(`${name}: a document without apiVersion, kind or metadata.name:\n${text}`);
      manifests.push(obj);
    }
  }
  return { manifests, files, notes };
}

/** The one manifest of `kind` (and `name`, when given); throws when there is not exactly one. */
export function one(rendered: Rendered, kind: string, name?: string): Manifest {
  const found = rendered.manifests.filter((m) => m.kind === kind && (name === undefined || m.metadata.name === name));
  if (found.length !== 1) throw new Error(`want one ${kind}${name ? ` ${name}` : ''}, found ${found.length}`);
  return found[0]!;
}
