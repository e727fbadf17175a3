/**
 * One wording per argument: a model reads an argument's description in the MCP tool's input
 * schema (transport/descriptions/tool-descriptions.ts), a portal developer reads the same argument in
 * api/openapi.yaml (a path or query parameter, or a field of the request body). Where both
 * describe an argument, at any depth, the two texts are the same.
 */
import { describe, expect, it } from 'vitest';
import { toolDefinition } from './mcp/tools.js';
import { OPERATIONS, openApiPath } from './operations.js';
import { documentedOperations, loadOpenApi, resolveParameter } from '../../test/support/transport/openapi-schemas.js';

type Schema = {
  $ref?: string; description?: string; properties?: Record<string, Schema>; items?: Schema;
  allOf?: Schema[]; anyOf?: Schema[]; oneOf?: Schema[];
};

const { doc } = loadOpenApi();
const documented = documentedOperations(doc);
const schemas = doc.components.schemas as Record<string, Schema>;

function deref(schema: Schema): Schema {
  return schema.$ref ? deref(schemas[schema.$ref.replace('#/components/schemas/', '')]!) : schema;
}

/** Every described argument below `schema` as `path → description` (`skills.gitRefs[].url`). */
function described(
  schema: Schema, prefix: string, out: Map<string, string>, seen = new Set<Schema>(),
): Map<string, string> {
  const node = deref(schema);
  if (seen.has(node)) return out;
  seen.add(node);
  const parts = [...(node.allOf ?? []), ...(node.anyOf ?? []), ...(node.oneOf ?? [])];
  for (const part of parts) described(part, prefix, out, seen);
  if (node.items) described(node.items, `${prefix}[]`, out, seen);
  for (const [name, property] of Object.entries(node.properties ?? {})) {
    const path = prefix ? `${prefix}.${name}` : name;
    // A property's own description wins over the one of the schema it refers to, as in OpenAPI 3.1.
    const text = property.description ?? deref(property).description;
    if (text !== undefined && !out.has(path)) out.set(path, text);
    described(property, path, out, new Set(seen));
  }
  return out;
}

function openApiArguments(tool: string): Map<string, string> {
  const operation = OPERATIONS.find((o) => o.tool === tool)!;
  const op = documented.get(`${operation.rest.method.toUpperCase()} ${openApiPath(operation)}`)!;
  const out = new Map<string, string>();
  const parameters = [...(doc.paths[op.path]!.parameters ?? []), ...(op.parameters ?? [])]
    .map((p) => resolveParameter(doc, p));
  for (const p of parameters as (typeof parameters[number] & { description?: string; schema: Schema })[]) {
    if (p.in === 'header') continue;
    const text = p.description ?? p.schema.description;
    if (text !== undefined) out.set(p.name, text);
  }
  const body = op.requestBody?.content['application/json']?.schema;
  if (body) described(body as Schema, '', out);
  return out;
}

const rows = OPERATIONS.map((o) => {
  const mcp = described(toolDefinition(o).inputSchema as Schema, '', new Map());
  const rest = openApiArguments(o.tool);
  const shared = [...mcp.keys()].filter((k) => rest.has(k));
  const pathParams = new Set([...o.rest.path.matchAll(/:(\w+)/g)].map((m) => m[1]!));
  return { tool: o.tool, mcp, rest, shared, pathParams };
});

/** Backticks are how the document marks code; a final period is how it ends a sentence. */
const plain = (text: string) => text.replaceAll('`', '').trim().replace(/\.$/, '');

/**
 * The same words, or one text is the other and goes on: the document adds what only REST
 * has (a flag's default, `If-Match`), a tool adds its own rule to a field several share.
 */
const agree = (a: string, b: string) => plain(a) === plain(b) || plain(b).startsWith(`${plain(a)}. `)
  || plain(a).startsWith(`${plain(b)}. `) || plain(a).startsWith(`${plain(b)}; `);

/**
 * Documented with REST's own words, each for a reason: a path always carries the agent's
 * name and namespace (no default applies), a boolean query parameter says how the query
 * string spells true and that it must agree with the body, and one documented toolset and
 * timeout serve tools MCP words each for its own use.
 */
const REST_WORDED = new Set([
  'name', 'namespace', 'dryRun', 'force', 'refresh', 'toolset',
  'update_agent:refreshSkills', 'rollback_agent:refreshSkills',
  'start_session:timeoutSeconds', 'send_message:timeoutSeconds',
]);
const restWorded = (tool: string, argument: string, isPath: boolean) =>
  (REST_WORDED.has(argument) && (isPath || !['name', 'namespace'].includes(argument)))
  || REST_WORDED.has(`${tool}:${argument}`);

describe('argument descriptions in the MCP input schemas and api/openapi.yaml', () => {
  it('compare a good share of the arguments, so a change of either shape cannot hollow this out', () => {
    const compared = rows.flatMap((r) => r.shared.filter((k) => !restWorded(r.tool, k, r.pathParams.has(k))));
    expect(compared.length).toBeGreaterThan(60);
    const create = rows.find((r) => r.tool === 'create_agent')!;
    expect(create.shared).toEqual(expect.arrayContaining(['skills.gitRefs[].url', 'wait']));
  });

  it.each(rows.map((r) => [r.tool, r] as const))('agree for every argument of %s both describe', (_tool, r) => {
    const differing = r.shared.filter((k) => !restWorded(r.tool, k, r.pathParams.has(k)))
      .filter((k) => !agree(r.mcp.get(k)!, r.rest.get(k)!))
      .map((k) => ({ argument: k, mcp: r.mcp.get(k), openapi: r.rest.get(k) }));
    expect(differing).toEqual([]);
  });

  it('keep no exception that is not needed: each REST-worded argument differs somewhere', () => {
    const needed = new Set(rows.flatMap((r) => r.shared.filter((k) => !agree(r.mcp.get(k)!, r.rest.get(k)!))
      .flatMap((k) => [k, `${r.tool}:${k}`])));
    expect([...REST_WORDED].filter((k) => !needed.has(k))).toEqual([]);
  });
});
