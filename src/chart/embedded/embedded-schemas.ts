/**
 * The agent chart values schemas compiled into agent-manager, one per chart line: the fallback that validates
 * when the chart registry cannot be read. 0.x: chart 0.5.2, the line that renders kagent.dev/v1alpha2 Agents;
 * 2.x: chart 2.0.0, written from the chart's documented values contract (the line that renders
 * api.kagent.dev/v1alpha3 Agents on a Harness). The JSON sits next to this module in src/ and, copied by
 * scripts/copy-assets.mjs, next to the compiled module in dist/, so the lookup relative to import.meta.url
 * works from both.
 */
import { readFileSync } from 'node:fs';
import type { ChartLine } from '../../core/chart-lines/major-line.js';
import { asObject } from '../../core/json.js';

/** The agent chart version the embedded 0.x schema belongs to. */
export const EMBEDDED_SCHEMA_VERSION = '0.5.2';
/** The agent chart version the embedded 2.x schema belongs to. */
export const EMBEDDED_SCHEMA_2X_VERSION = '2.0.0';

function load(file: string): Readonly<Record<string, unknown>> {
  return deepFreeze(asObject(JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8'))));
}

/** The parsed embedded 0.x schema; one frozen object, so its compiled validator is reused. */
export const EMBEDDED_SCHEMA: Readonly<Record<string, unknown>> = load('./agent-values.schema.json');
/** The parsed embedded 2.x schema. */
export const EMBEDDED_SCHEMA_2X: Readonly<Record<string, unknown>> = load('./agent-values-2x.schema.json');

/** The embedded schema of a line, with its chart version. */
export function embeddedSchema(line: ChartLine): { version: string; schema: Record<string, unknown> } {
  return line === '2.x'
    ? { version: EMBEDDED_SCHEMA_2X_VERSION, schema: EMBEDDED_SCHEMA_2X }
    : { version: EMBEDDED_SCHEMA_VERSION, schema: EMBEDDED_SCHEMA };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
