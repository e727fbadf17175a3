/**
 * Helm's check of release values against a chart's `values.schema.json`, done and worded as Helm does:
 * the merged values are validated before rendering, and any violation refuses the whole install or
 * upgrade, listed under the chart's name (`- at '<JSON pointer>': <reason>`, as Helm 3.18+ prints).
 * Helm ignores `format`, so it is off here; the dialect follows `$schema`; a schema that does not compile
 * refuses every install, as in Helm.
 */
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';

const OPTIONS: Options = { strict: false, allErrors: true, validateFormats: false, verbose: true, logger: false };

const compiled = new WeakMap<object, ValidateFunction | Error>();

function validatorFor(schema: object): ValidateFunction | Error {
  let entry = compiled.get(schema);
  if (!entry) {
    const dialect = '$schema' in schema ? String(schema.$schema ?? '') : '';
    const ajv = dialect.includes('2020-12') ? new Ajv2020(OPTIONS)
      : dialect.includes('2019-09') ? new Ajv2019(OPTIONS) : new Ajv(OPTIONS);
    try {
      entry = ajv.compile(schema);
    } catch (err) {
      entry = err instanceof Error ? err : new Error(String(err));
    }
    compiled.set(schema, entry);
  }
  return entry;
}

/** Helm's refusal text for `values` against the chart's schema, or undefined when they pass. */
export function helmSchemaError(chartName: string, schema: object, values: unknown): string | undefined {
  const validate = validatorFor(schema);
  let lines: string[];
  if (validate instanceof Error) {
    lines = [`- at '': the chart's values.schema.json does not compile: ${validate.message}`];
  } else {
    if (validate(values)) return undefined;
    lines = [...new Set(leaves(validate.errors ?? []).map((e) => `- at '${e.instancePath}': ${reason(e)}`))].sort();
  }
  return `values don't meet the specifications of the schema(s) in the following ` +
    `chart(s):\n${chartName}:\n${lines.join('\n')}`;
}

// Combinators report their branches' errors too; Helm lists the branches' reasons.
const COMBINATORS = new Set(['anyOf', 'oneOf', 'allOf', 'if', 'not']);
function leaves(errors: ErrorObject[]): ErrorObject[] {
  const leafErrors = errors.filter((e) => !COMBINATORS.has(e.keyword));
  return leafErrors.length > 0 ? leafErrors : errors;
}

const q = (value: unknown): string => `'${typeof value === 'string' ? value : JSON.stringify(value)}'`;

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** The length ajv's minLength/maxLength (strings) and minItems/maxItems (lists) errors are about. */
const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const lengthOf = (data: unknown): number => (typeof data === 'string' || Array.isArray(data) ? data.length : 0);

function reason(e: ErrorObject): string {
  const p: Record<string, unknown> = e.params;
  switch (e.keyword) {
    case 'type': return `got ${typeOf(e.data)}, want ${[p.type].flat().join(' or ')}`;
    case 'required': return `missing property ${q(p.missingProperty)}`;
    case 'additionalProperties': return `additional properties ${q(p.additionalProperty)} not allowed`;
    case 'unevaluatedProperties': return `additional properties ${q(p.unevaluatedProperty)} not allowed`;
    case 'enum': return `value must be one of ${asList(p.allowedValues).map(q).join(', ')}`;
    case 'const': return `value must be ${q(p.allowedValue)}`;
    case 'pattern': return `${q(e.data)} does not match pattern ${q(p.pattern)}`;
    case 'minLength': return `length must be >= ${String(p.limit)}, but got ${String(lengthOf(e.data))}`;
    case 'maxLength': return `length must be <= ${String(p.limit)}, but got ${String(lengthOf(e.data))}`;
    case 'minimum': return `must be >= ${String(p.limit)} but found ${String(e.data)}`;
    case 'maximum': return `must be <= ${String(p.limit)} but found ${String(e.data)}`;
    case 'minItems': return `minItems: got ${String(lengthOf(e.data))}, want ${String(p.limit)}`;
    case 'maxItems': return `maxItems: got ${String(lengthOf(e.data))}, want ${String(p.limit)}`;
    case 'uniqueItems': return `items at ${String(p.j)} and ${String(p.i)} are equal`;
    default: return e.message ?? `fails ${e.keyword}`;
  }
}
