/**
 * The agent chart 2.x's values contracts, one per minor the simulated registry holds: 2.0.x is
 * values-v2.schema.json as written from the chart's values.yaml; 2.1.x adds `agent.egress`, the
 * origins the Agent may reach (rendered as its `spec.egress`), so a chart with and without it
 * can be told apart. 2.0.x has no `agent.egress`, and its closed `agent` refuses the key.
 */
import semver from 'semver';
import V2_SCHEMA from './values-v2.schema.json' with { type: 'json' };

/** The most origins an Agent accepts, and the longest origin. */
export const MAX_EGRESS = 64;
export const MAX_ORIGIN_LENGTH = 270;

// RE2 (Helm's validator is Go) has no look-ahead: labels, the wildcard and the port are spelled out.
const LABEL = '[a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?';
const HOST = `${LABEL}(?:\\.${LABEL})*`;
// A wildcard replaces the leftmost label and needs two labels under it (`*.example.com`, not `*.com`).
const WILDCARD_HOST = `\\*\\.${LABEL}\\.${LABEL}(?:\\.${LABEL})*`;
const PORT = '(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])';

/** An HTTP(S) origin: scheme, an optional `*.` wildcard, a host and an optional port 1-65535. */
export const ORIGIN_PATTERN = `^https?://(?:${WILDCARD_HOST}|${HOST})(?::${PORT})?$`;

function withEgress(schema: typeof V2_SCHEMA): object {
  const copy = structuredClone(schema);
  const egress = {
    description: 'Origins the agent may reach besides its model and tools; rendered as the Agent\'s spec.egress.',
    type: 'array',
    maxItems: MAX_EGRESS,
    items: { type: 'string', maxLength: MAX_ORIGIN_LENGTH, pattern: ORIGIN_PATTERN },
  };
  const agent = { ...copy.properties.agent, properties: { ...copy.properties.agent.properties, egress } };
  return { ...copy, title: 'agent chart 2.1 values (the sandbox\'s copy)', properties: { ...copy.properties, agent } };
}

/** The 2.0.x contract. */
export const VALUES_V2_0: object = V2_SCHEMA;
/** The 2.1.x contract (2.0.x plus `agent.egress`). */
export const VALUES_V2_1: object = withEgress(V2_SCHEMA);

/** The values contract of a 2.x chart version. */
export function valuesSchemaV2(chartVersion: string): object {
  return semver.gte(semver.coerce(chartVersion) ?? '2.0.0', '2.1.0') ? VALUES_V2_1 : VALUES_V2_0;
}
