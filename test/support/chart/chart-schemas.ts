/**
 * Values schemas of the chart versions the registry tests push: 0.5.2 (the embedded
 * contract, no `toolset`) and 0.6.0 (the same plus a top-level `toolset` list), each with a
 * title naming its version so a test can tell which one answered.
 */
import { EMBEDDED_SCHEMA } from '../../../src/chart/embedded/embedded-schemas.js';

/** The 0.5.2 schema: the embedded contract, no toolset key. */
export function schemaWithoutToolset(version: string): Record<string, unknown> {
  const schema = structuredClone(EMBEDDED_SCHEMA) as Record<string, unknown>;
  schema.title = `agent chart ${version} values (test registry)`;
  return schema;
}

/** The 0.6.0 schema: 0.5.2 plus `toolset`, a non-empty list of selector strings. */
export function schemaWithToolset(version: string): Record<string, unknown> {
  const schema = schemaWithoutToolset(version);
  const properties = schema.properties as Record<string, unknown>;
  properties.toolset = {
    type: 'array',
    minItems: 1,
    items: { type: 'string', pattern: '^(preset|server|workflow|tool):[A-Za-z0-9._-]+$' },
  };
  return schema;
}
