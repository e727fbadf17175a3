/**
 * Paths and loaders the chart, image and docs suites share: the repository root, the
 * chart's values, schema and template texts, and an ajv validator of the chart's
 * values.schema.json (JSON Schema 2020-12, as its $schema says).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse as parseYaml } from 'yaml';

/** Repository root. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The service's Helm chart. */
export const CHART_DIR = join(ROOT, 'helm', 'agent-manager');

/** Text of a file under the repository root. */
export function readRepoFile(...parts: string[]): string {
  return readFileSync(join(ROOT, ...parts), 'utf8');
}

/** values.yaml, parsed. */
export function defaultValues(): Record<string, unknown> {
  return parseYaml(readRepoFile('helm', 'agent-manager', 'values.yaml')) as Record<string, unknown>;
}

/** values.schema.json, parsed. */
export function valuesSchema(): Record<string, unknown> {
  return JSON.parse(readRepoFile('helm', 'agent-manager', 'values.schema.json')) as Record<string, unknown>;
}

/** Every template file's text, by file name. */
export function templateTexts(): Record<string, string> {
  const dir = join(CHART_DIR, 'templates');
  return Object.fromEntries(readdirSync(dir).sort().map((name) => [name, readFileSync(join(dir, name), 'utf8')]));
}

/** A validator of chart values: the ajv error lines (`/path message`), empty when valid. */
export function valuesValidator(): (values: unknown) => string[] {
  const schema = valuesSchema();
  if (schema.$schema !== 'https://json-schema.org/draft/2020-12/schema') {
    throw new Error(`values.schema.json declares ${String(schema.$schema)}; this validator is the 2020-12 one`);
  }
  // strictRequired is off because the schema's cross-field refusals name their reason as a
  // required property no values can have: helm prints that name, and no description.
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
  const validate = ajv.compile(schema);
  return (values) => (validate(values) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''}`.trim()));
}
