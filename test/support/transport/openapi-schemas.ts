/**
 * api/openapi.yaml for tests: the parsed document, and an ajv (JSON Schema 2020-12, as
 * OpenAPI 3.1 uses) that validates a value against any documented schema or against the
 * documented response of an operation. Strict mode is on, so a schema keyword ajv does
 * not know is a test failure rather than something silently ignored.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { DEFAULT_OPENAPI_PATH } from '../../../src/transport/rest/openapi-document.js';

/** The parts of the document the tests read. */
export interface OpenApiOperation {
  operationId: string;
  'x-mcp-tool'?: string;
  parameters?: ({ $ref: string } | OpenApiParameter)[];
  requestBody?: { required?: boolean; content: Record<string, { schema: { $ref: string } }> };
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: unknown }> }>;
}
export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: { type: string };
}
export type OpenApiDocument = {
  paths: Record<string, Record<string, unknown> & { parameters?: ({ $ref: string } | OpenApiParameter)[] }>;
  components: { schemas: Record<string, unknown>; parameters: Record<string, OpenApiParameter> };
};

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** The document as parsed YAML. */
export function loadOpenApi(path: string = DEFAULT_OPENAPI_PATH): { text: string; doc: OpenApiDocument } {
  const text = readFileSync(path, 'utf8');
  return { text, doc: parse(text) as OpenApiDocument };
}

/** Every operation of the document as `METHOD path` → operation. */
export function documentedOperations(
  doc: OpenApiDocument,
): Map<string, OpenApiOperation & { path: string; method: string }> {
  const out = new Map<string, OpenApiOperation & { path: string; method: string }>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method] as OpenApiOperation | undefined;
      if (operation) out.set(`${method.toUpperCase()} ${path}`, { ...operation, path, method });
    }
  }
  return out;
}

/** A parameter, with a `$ref` to components/parameters resolved. */
export function resolveParameter(doc: OpenApiDocument, p: { $ref: string } | OpenApiParameter): OpenApiParameter {
  if (!('$ref' in p)) return p;
  const name = p.$ref.replace('#/components/parameters/', '');
  const resolved = doc.components.parameters[name];
  if (!resolved) throw new Error(`unresolved parameter ${p.$ref}`);
  return resolved;
}

const SCHEMA_ID = 'urn:agent-manager:openapi';

/** Validates values against the document's schemas. */
export class SchemaValidator {
  private readonly ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });

  constructor(doc: OpenApiDocument) {
    // The components as one 2020-12 schema resource, its refs pointing at its own $defs.
    const defs = JSON.parse(JSON.stringify(doc.components.schemas).replaceAll('#/components/schemas/', '#/$defs/')) as unknown;
    this.ajv.addSchema({ $id: SCHEMA_ID, $defs: defs });
  }

  /** The violations of `value` against components/schemas/`name`, as `path message` lines; [] when valid. */
  errors(name: string, value: unknown): string[] {
    return this.check({ $ref: `${SCHEMA_ID}#/$defs/${name}` }, value);
  }

  /** The violations of `value` against an inline schema of the document (refs to components allowed). */
  errorsFor(schema: unknown, value: unknown): string[] {
    const rewritten = JSON.parse(JSON.stringify(schema).replaceAll('#/components/schemas/', `${SCHEMA_ID}#/$defs/`)) as object;
    return this.check(rewritten, value);
  }

  private check(schema: object, value: unknown): string[] {
    const validate = this.ajv.compile(schema);
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e: ErrorObject) => `${e.instancePath || '(root)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
  }
}
