/**
 * Label and field selectors as the list and watch endpoints accept them.
 *
 * Labels: `a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x,y)`, `a`, `!a`, `a>1`, `a<1`,
 * comma-joined (all must hold). Fields: `key=value`, `key==value`, `key!=value` over
 * `metadata.name`, `metadata.namespace` and the resource's own selectable fields.
 * Parse errors and unknown field labels are 400 BadRequest, worded like the real server.
 */
import { isObject, type JsonObject } from '../api/json.js';
import { statusErrors } from '../api/status.js';
import type { ResourceDef } from '../resources/resource-def.js';

/** A compiled selector: true when the object matches. */
export type Selector = (obj: JsonObject) => boolean;

type Op = 'exists' | '!exists' | 'in' | 'notin' | 'gt' | 'lt';
interface Requirement { key: string; op: Op; values: string[] }

const TOKEN = /\s*(!=|==|=|!|\(|\)|,|<|>|[^\s!=(),<>]+)/y;

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  let match: RegExpExecArray | null;
  while (TOKEN.lastIndex < text.length && (match = TOKEN.exec(text))) tokens.push(match[1]!);
  if (text.slice(TOKEN.lastIndex).trim()) {
    throw statusErrors.badRequest(`unable to parse requirement: invalid selector: '${text}'`);
  }
  return tokens;
}

const fail = (found: string | undefined, expected: string): never => {
  throw statusErrors.badRequest(`unable to parse requirement: found '${found ?? ''}', expected: ${expected}`);
};

function parseValues(tokens: string[], at: number): [string[], number] {
  if (tokens[at] !== '(') fail(tokens[at], "'('");
  const values: string[] = [];
  let i = at + 1;
  while (tokens[i] !== ')') {
    const token = tokens[i];
    if (token === undefined) fail(undefined, "')'");
    if (token !== ',') values.push(token!);
    i++;
  }
  return [values, i + 1];
}

/** Parse a label selector into requirements. */
function parseLabelSelector(text: string): Requirement[] {
  const tokens = tokenize(text);
  const requirements: Requirement[] = [];
  let i = 0;
  while (i < tokens.length) {
    if (tokens[i] === '!') {
      const key = tokens[i + 1];
      if (!key || /^[(),=!<>]/.test(key)) fail(key, 'identifier');
      requirements.push({ key: key!, op: '!exists', values: [] });
      i += 2;
    } else {
      const key = tokens[i]!;
      if (/^[(),=!<>]/.test(key)) fail(key, "'!', identifier");
      const op = tokens[i + 1];
      if (op === undefined || op === ',') {
        requirements.push({ key, op: 'exists', values: [] });
        i += 1;
      } else if (op === '=' || op === '==' || op === '!=') {
        const value = tokens[i + 2] === undefined || tokens[i + 2] === ',' ? '' : tokens[i + 2]!;
        if (/^[()=!<>]/.test(value)) fail(value, 'identifier');
        requirements.push({ key, op: op === '!=' ? 'notin' : 'in', values: [value] });
        i += value === '' ? 2 : 3;
      } else if (op === 'in' || op === 'notin') {
        const [values, next] = parseValues(tokens, i + 2);
        if (values.length === 0) fail(')', 'at least one value');
        requirements.push({ key, op, values });
        i = next;
      } else if (op === '>' || op === '<') {
        const value = tokens[i + 2];
        if (value === undefined || !/^-?\d+$/.test(value)) fail(value, 'an integer');
        requirements.push({ key, op: op === '>' ? 'gt' : 'lt', values: [value!] });
        i += 3;
      } else {
        fail(op, "'=', '!=', '==', 'in', notin'");
      }
    }
    if (i < tokens.length) {
      if (tokens[i] !== ',') fail(tokens[i], "','");
      i++;
      // A comma ends no selector: `tier=x,` is refused, not read as `tier=x`.
      if (i === tokens.length) fail(undefined, 'identifier');
    }
  }
  for (const req of requirements) checkRequirement(req);
  return requirements;
}

const NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/**
 * A requirement's key is a qualified name and its values label values, as apimachinery's
 * `labels.Parse` checks them (a selector no label could match is a 400, not an empty list).
 */
function checkRequirement({ key, op, values }: Requirement): void {
  const slash = key.indexOf('/');
  const [prefix, name] = slash < 0 ? [undefined, key] : [key.slice(0, slash), key.slice(slash + 1)];
  const badPrefix = prefix !== undefined && (prefix.length === 0 || prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix));
  const keyProblem = badPrefix ? 'prefix part must be a lowercase RFC 1123 subdomain'
    : name.length === 0 || name.length > 63 || !NAME_PART.test(name)
      ? 'name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an ' +
        'alphanumeric character (at most 63 characters)'
      : undefined;
  if (keyProblem) {
    throw statusErrors.badRequest(
      `unable to parse requirement: key: Invalid value: ${JSON.stringify(key)}: ${keyProblem}`);
  }
  if (op === 'gt' || op === 'lt') return;
  for (const [i, value] of values.entries()) {
    if (value.length <= 63 && LABEL_VALUE.test(value)) continue;
    throw statusErrors.badRequest(`unable to parse requirement: values[${i}][${key}]: Invalid value: ` +
      `${JSON.stringify(value)}: a valid label must be an empty string or consist of alphanumeric characters, ` +
      `'-', '_' or '.', and must start and end with an alphanumeric character (at most 63 characters)`);
  }
}

function matches(req: Requirement, labels: Record<string, unknown>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, req.key);
  const value = has ? String(labels[req.key]) : undefined;
  switch (req.op) {
    case 'exists': return has;
    case '!exists': return !has;
    case 'in': return has && req.values.includes(value!);
    case 'notin': return !has || !req.values.includes(value!);
    case 'gt': return has && /^-?\d+$/.test(value!) && Number(value) > Number(req.values[0]);
    case 'lt': return has && /^-?\d+$/.test(value!) && Number(value) < Number(req.values[0]);
  }
}

/** Compile a label selector; undefined or empty selects everything. */
export function labelSelector(text: string | undefined): Selector | undefined {
  if (!text || !text.trim()) return undefined;
  const requirements = parseLabelSelector(text);
  return (obj) => {
    const labels = isObject(obj.metadata) && isObject(obj.metadata.labels) ? obj.metadata.labels : {};
    return requirements.every((req) => matches(req, labels));
  };
}

/** Split on unescaped commas and unescape `\,`, `\=` and `\\`. */
function splitTerms(text: string): string[] {
  const terms: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && i + 1 < text.length) current += c + text[++i];
    else if (c === ',') {
      terms.push(current);
      current = '';
    } else current += c;
  }
  terms.push(current);
  return terms.filter((t) => t.length > 0);
}

const unescape = (s: string): string => s.replace(/\\(.)/g, '$1');

/** Compile a field selector for a resource; unknown fields are refused like the real server. */
export function fieldSelector(text: string | undefined, def: ResourceDef): Selector | undefined {
  if (!text || !text.trim()) return undefined;
  const tests: Selector[] = [];
  for (const term of splitTerms(text)) {
    const match = /^([^=!]+?)\s*(==|=|!=)\s*(.*)$/s.exec(term);
    if (!match) throw statusErrors.badRequest(`invalid selector: '${text}'; can't understand '${term}'`);
    // The pattern's three groups always take part in a match.
    const [, key = '', op = '', raw = ''] = match;
    const value = unescape(raw);
    const read = fieldReader(key.trim(), def);
    tests.push(op === '!=' ? (o) => read(o) !== value : (o) => read(o) === value);
  }
  return (obj) => tests.every((t) => t(obj));
}

function fieldReader(key: string, def: ResourceDef): (obj: JsonObject) => string {
  const meta = (o: JsonObject, k: string): string => (isObject(o.metadata) ? String(o.metadata[k] ?? '') : '');
  if (key === 'metadata.name') return (o) => meta(o, 'name');
  if (key === 'metadata.namespace') return (o) => meta(o, 'namespace');
  const custom = def.fieldLabels?.[key];
  if (custom) return (o) => String(custom(o) ?? '');
  if (def.custom) {
    throw statusErrors.badRequest(`"${key}" is not a known field selector: only "metadata.name", "metadata.namespace"`);
  }
  throw statusErrors.badRequest(`field label not supported: ${key}`);
}

/** Both selectors at once; undefined when neither is given. */
export function combine(...selectors: (Selector | undefined)[]): Selector | undefined {
  const present = selectors.filter((s): s is Selector => s !== undefined);
  if (present.length === 0) return undefined;
  if (present.length === 1) return present[0];
  return (obj) => present.every((s) => s(obj));
}
