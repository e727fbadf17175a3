/**
 * Values validation against the agent chart's values.schema.json, each violation one sorted line
 * `"<instance path or (root)>: <message>"`. The dialect follows `$schema`; format assertions are off,
 * as Helm ignores `format`, so the same values pass here and at install; each schema object is compiled
 * once. `toolset` is agent-manager's own contract, hidden from a schema that does not declare it.
 * Trust boundary: the schema may come from a registry; one that does not compile is a violation, never "valid".
 */
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { TOOLSET_VALUES_KEY } from './toolset/toolset-grammar.js';
import { asList, asObject, isJsonObject } from './json.js';

/** Which schema answered: its chart version and where it came from. */
export interface SchemaLabel {
  version: string;
  /** `registry` or `embedded`. */
  source: string;
}

/** A compiled schema: the validator, or why the schema does not compile. */
export interface CompiledValuesSchema {
  readonly validate?: ValidateFunction;
  /** The single violation a schema that does not compile produces. */
  readonly compileError?: string;
}

const AJV_OPTIONS: Options = {
  strict: false,
  allErrors: true,
  // Parity with Helm, which ignores `format`: a value Helm installs is never refused here.
  validateFormats: false,
  // Keeps the offending value on each error, so messages can quote it.
  verbose: true,
  logger: false,
};

type Compiled = { validate: ValidateFunction } | { error: string };
const compiled = new WeakMap<object, Compiled>();

/** Compiles `schema` once per schema object; later calls reuse the validator. */
export function compileValuesSchema(
  schema: Record<string, unknown>,
  label: SchemaLabel,
): CompiledValuesSchema {
  let entry = compiled.get(schema);
  if (!entry) {
    entry = compile(schema);
    compiled.set(schema, entry);
  }
  if ('validate' in entry) return { validate: entry.validate };
  return {
    compileError: `agent chart schema ${label.version} (${label.source}) does not compile: ${entry.error}`,
  };
}

function compile(schema: Record<string, unknown>): Compiled {
  // A fresh Ajv per schema object: two chart versions may share a `$id`, which one
  // Ajv instance would refuse to hold twice. Compiling happens once per object anyway.
  try {
    return { validate: ajvFor(schema).compile(schema) };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

function ajvFor(schema: Record<string, unknown>): Ajv {
  const dialect = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (dialect.includes('2020-12')) return new Ajv2020(AJV_OPTIONS);
  if (dialect.includes('2019-09')) return new Ajv2019(AJV_OPTIONS);
  return new Ajv(AJV_OPTIONS);
}

/**
 * Every violation of `values` against `schema`, one sorted, de-duplicated line per
 * leaf error; `[]` when the values are valid. A schema that does not compile gives
 * the single violation `agent chart schema <v> (<src>) does not compile: <err>`.
 */
export function valuesViolations(
  schema: Record<string, unknown>,
  values: Record<string, unknown>,
  label: SchemaLabel = { version: 'unknown', source: 'unknown' },
): string[] {
  const { validate, compileError } = compileValuesSchema(schema, label);
  if (!validate) return [compileError ?? 'agent chart schema does not compile'];
  if (validate(schemaSubject(schema, values))) return [];
  return [...new Set(leafErrors(validate.errors ?? []).map(formatError))].sort();
}

/** The create/update refusal text for a non-empty list of violations. */
export function schemaErrorText(version: string, source: string, violations: string[]): string {
  return `values do not satisfy the agent chart schema ${version} (${source}): ${violations.join('; ')}`;
}

/** True when the schema lists `key` among its top-level properties. */
export function schemaDeclares(schema: Record<string, unknown>, ...path: string[]): boolean {
  let node: unknown = schema;
  for (const key of path) {
    const props = asObject(node).properties;
    if (!isJsonObject(props) || !Object.hasOwn(props, key)) return false;
    node = props[key];
  }
  return true;
}

/**
 * The values the schema judges: `values` itself, or a shallow copy without `toolset`
 * when the schema does not declare that key.
 */
export function schemaSubject(
  schema: Record<string, unknown>,
  values: Record<string, unknown>,
): Record<string, unknown> {
  if (!Object.hasOwn(values, TOOLSET_VALUES_KEY) || schemaDeclares(schema, TOOLSET_VALUES_KEY)) {
    return values;
  }
  const { [TOOLSET_VALUES_KEY]: _dropped, ...rest } = values;
  return rest;
}

/**
 * Drops composite `oneOf`/`anyOf`/`if` errors whose branches reported their own
 * errors: the branch errors say what is wrong, the composite only that something is.
 */
function leafErrors(errors: ErrorObject[]): ErrorObject[] {
  const composite = new Set(['oneOf', 'anyOf', 'if']);
  return errors.filter(
    (e) =>
      !composite.has(e.keyword) ||
      !errors.some((other) => other !== e && other.schemaPath.startsWith(`${e.schemaPath}/`)),
  );
}

function formatError(e: ErrorObject): string {
  return `${instancePath(e.instancePath)}: ${message(e)}`;
}

/** `/agent/name` (pointer tokens unescaped, as the Go service prints them) or `(root)`. */
function instancePath(pointer: string): string {
  if (pointer === '') return '(root)';
  return pointer.replaceAll('~1', '/').replaceAll('~0', '~');
}

function message(e: ErrorObject): string {
  const p = asObject(e.params);
  switch (e.keyword) {
    case 'additionalProperties':
      return `additional property ${quote(p.additionalProperty)} is not allowed`;
    case 'unevaluatedProperties':
      return `unevaluated property ${quote(p.unevaluatedProperty)} is not allowed`;
    case 'required':
      return `missing required property ${quote(p.missingProperty)}`;
    case 'enum':
      return `${quote(e.data)} is not one of ${asList(p.allowedValues).map((v) => quote(v)).join(', ')}`;
    case 'const':
      return `must be ${quote(p.allowedValue)}`;
    case 'pattern':
      return `${quote(e.data)} does not match the pattern ${quote(p.pattern, Infinity)}`;
    case 'maxLength':
      return `must be at most ${String(p.limit)} characters long (is ${[...String(e.data)].length})`;
    case 'minLength':
      return `must be at least ${String(p.limit)} character${p.limit === 1 ? '' : 's'} long`;
    case 'type':
      return `must be of type ${String(p.type).split(',').join(' or ')}, not ${typeName(e.data)}`;
    default:
      return e.message ?? `fails the ${e.keyword} rule`;
  }
}

const MAX_QUOTED = 80;

/** JSON-quotes a value for a message, shortening long ones. */
function quote(value: unknown, max = MAX_QUOTED): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}
