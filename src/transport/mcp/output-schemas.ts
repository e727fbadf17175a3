/**
 * Each tool's `outputSchema`, taken from api/openapi.yaml rather than written again: the JSON Schema
 * of the operation's documented success response (200, else 201), its `$ref`s resolved in place so the
 * schema stands alone (MCP clients compile it with no document around it). Every response is a
 * component object, so the root is `type: object` as MCP asks. The document is read once per process,
 * when the tool catalog is built (after the server listens); the compiler holds each result type equal to
 * the same response (operations.ts), a test holds these schemas equal to the document's.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { asObject, isJsonObject, type JsonObject } from '../../core/json.js';
import { DEFAULT_OPENAPI_PATH } from '../rest/openapi-document.js';
import { openApiPath, type AnyOperation } from '../operations.js';

/** A JSON Schema object, as MCP's `Tool.outputSchema` carries it. */
export type OutputSchema = { type: 'object'; [key: string]: unknown };

/** api/openapi.yaml's two parts read here; below them the document is read with core/json's narrowing. */
interface OpenApiDocument {
  paths: JsonObject;
  components: { schemas: JsonObject };
}

/** `node` with every `#/components/schemas/…` reference replaced by a copy of what it names. */
export function resolveRefs(node: unknown, schemas: Record<string, unknown>): unknown {
  if (Array.isArray(node)) return node.map((item) => resolveRefs(item, schemas));
  if (!isJsonObject(node)) return node;
  const { $ref, ...rest } = node;
  const out: Record<string, unknown> = {};
  if (typeof $ref === 'string') {
    const name = /^#\/components\/schemas\/([^/]+)$/.exec($ref)?.[1];
    if (name === undefined || !(name in schemas)) throw new Error(`api/openapi.yaml: unresolvable $ref ${$ref}`);
    Object.assign(out, resolveRefs(schemas[name], schemas));
  }
  for (const [key, value] of Object.entries(rest)) out[key] = resolveRefs(value, schemas);
  return out;
}

/** The response schema api/openapi.yaml documents for an operation's success, resolved. */
export function responseSchema(document: OpenApiDocument, operation: AnyOperation): OutputSchema {
  const pathItem = asObject(document.paths[openApiPath(operation)]);
  const responses = asObject(asObject(pathItem[operation.rest.method]).responses);
  const schema = asObject(asObject(asObject(responses['200'] ?? responses['201']).content)['application/json']).schema;
  const resolved = resolveRefs(schema, document.components.schemas);
  if (!isOutputSchema(resolved)) {
    throw new Error(`api/openapi.yaml: ${operation.tool} documents no object response schema for 200 or 201`);
  }
  return resolved;
}

/** True for a JSON Schema of an object (what MCP asks an outputSchema's root to be). */
function isOutputSchema(schema: unknown): schema is OutputSchema {
  return isJsonObject(schema) && schema.type === 'object';
}

let cached: OpenApiDocument | undefined;

/** api/openapi.yaml, parsed once. */
export function openApiDocument(path: string = DEFAULT_OPENAPI_PATH): OpenApiDocument {
  if (path !== DEFAULT_OPENAPI_PATH) return readDocument(path);
  cached ??= readDocument(path);
  return cached;
}

/** The document at `path`: its paths and component schemas, each an object. */
function readDocument(path: string): OpenApiDocument {
  const parsed = asObject(parse(readFileSync(path, 'utf8')));
  const { paths } = parsed;
  const { schemas } = asObject(parsed.components);
  if (!isJsonObject(paths) || !isJsonObject(schemas)) {
    throw new Error(`${path}: not an OpenAPI document with paths and components.schemas`);
  }
  return { paths, components: { schemas } };
}

/** The keywords that only explain a schema; the answer's shape is the same without them. */
const ANNOTATIONS = new Set(['description', 'example', 'examples', 'title']);

/**
 * `schema` without its annotations. A tool's outputSchema travels in every session's tools/list, and the
 * response schemas' field prose is api/openapi.yaml's (and the tool's description's) to tell: with it the
 * outputSchemas were two thirds of tools/list (174 KB of 58 KB descriptions). A `properties` map's keys are
 * field names, never annotations, so a field named `description` stays.
 */
export function withoutAnnotations(schema: unknown, fieldNames = false): unknown {
  if (Array.isArray(schema)) return schema.map((item) => withoutAnnotations(item));
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!fieldNames && ANNOTATIONS.has(key)) continue;
    out[key] = withoutAnnotations(value, !fieldNames && (key === 'properties' || key === 'patternProperties'));
  }
  return out;
}

/** The `outputSchema` of an operation's tool: the documented response's shape. */
export function outputSchemaOf(operation: AnyOperation): OutputSchema {
  const schema = withoutAnnotations(responseSchema(openApiDocument(), operation));
  // Dropping annotations keeps the root an object schema; the guard tells the compiler so.
  if (!isOutputSchema(schema)) throw new Error(`api/openapi.yaml: ${operation.tool}: no object response schema`);
  return schema;
}
