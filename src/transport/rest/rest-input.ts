/**
 * One REST request as an operation's input: body, then query, then path parameters merged and parsed
 * with the operation's zod schema (the MCP tool's too); a failure is a 400 in the words clients compare
 * (`invalid JSON: json: unknown field "x"`, `field "…" must be a string, not a number`, `name is
 * required`). `If-Match` becomes the `version` precondition (a contradicting body `version` is
 * refused), resolved against the current version when it lists several tags, then `If-None-Match`;
 * create refuses any If-Match with 412 (RFC 9110 §13.1.1). docs/safe-change.md has the full rules.
 */
import type { ParsedUrlQuery } from 'node:querystring';
import type { z } from 'zod';
import { invalid, isAppError, PreconditionFailed, type AppError } from '../../core/errors.js';
import { asObject } from '../../core/json.js';
import type { AnyOperation } from '../operations.js';
import { fieldPath, valueAt } from '../input/field-path.js';
import { issueText, wrongTypeText } from '../input/type-errors.js';
import { parseIfMatch, shownTag, singleVersion, versionFromList, versionUnlessNoneMatch,
  type IfMatch } from './if-match.js';
import { parseJsonBody } from './json-body.js';
import { nullRefusedFields } from '../input/null-fields.js';
import { header, type HttpRequest } from '../http/exchange.js';

/** Reads the agent's current `version`; a missing agent throws its 404. */
export type CurrentVersion = (namespace: string, name: string) => Promise<string | undefined>;

/** The operation's parsed (and, for validate, adapted) input of a request. */
export async function restInput(
  operation: AnyOperation, req: HttpRequest, currentVersion?: CurrentVersion,
): Promise<Record<string, unknown>> {
  const { rest } = operation;
  const query = req.query;
  refuseUnknownQuery(operation, query);
  // A null safety switch or precondition is refused (the schema names it), never read as "not given".
  const raw: Record<string, unknown> = rest.body ? parseJsonBody(req.body, nullRefusedFields(operation.input)) : {};
  // Where a value came from when not the body, so a refusal names a query parameter or path segment, not JSON.
  const origins = new Map<string, Origin>();
  for (const [name, type] of Object.entries(rest.query ?? {})) {
    // As Go's `Query().Get` a read takes the first value; a write takes it once
    // (`?mode=commit&mode=apply` would otherwise apply): values given twice must agree.
    const text = rest.method === 'get' && type === 'string' ? firstQueryValue(query[name])
      : flagValue(name, query[name]);
    if (text === undefined) continue;
    const given = type === 'string' ? text : type === 'integer' ? queryInteger(name, text) : queryFlag(name, text);
    const body = raw[name];
    // One value per request: a field in both the body and the query must agree. A body value
    // of the wrong type stays, for the schema to name.
    if (body === undefined) {
      raw[name] = given;
      origins.set(name, 'query parameter');
    } else if (typeof body === typeof given && body !== given) {
      throw invalid(`the query ${name}=${text.slice(0, 64)} and the body "${name}": ${shown(body)} disagree: ` +
        `send one of them`);
    }
  }
  for (const [name, value] of Object.entries(req.params ?? {})) {
    if (typeof value !== 'string') continue;
    // The path names the agent; a body `name` or `namespace` is ignored, as documented.
    raw[name] = rest.params?.[name] === 'integer' ? wholeNumber(name, value) : value;
    origins.set(name, 'path segment');
  }
  const ifMatch = rest.ifMatch ? parseIfMatch(header(req, 'if-match')) : undefined;
  const version = ifMatch && singleVersion(ifMatch);
  if (version !== undefined) {
    if (raw.version !== undefined && raw.version !== version) {
      throw invalid(`If-Match names version ${shownTag(version)} and the body version ` +
        `${JSON.stringify(shownTag(String(raw.version)))}: send one of them`);
    }
    raw.version = version;
  }
  const parsed = operation.input.safeParse(raw);
  if (!parsed.success) throw inputError(parsed.error.issues, raw, origins);
  const input = asObject(parsed.data);
  // If-Match lists and If-None-Match both compare with the current version: read it once.
  const current = currentVersion && readOnce(currentVersion);
  if (rest.createIfMatch) await checkCreateIfMatch(header(req, 'if-match'), input, current);
  if (ifMatch && !ifMatch.any && version === undefined) await resolveList(ifMatch, input, current);
  const ifNoneMatch = rest.ifMatch ? parseIfMatch(header(req, 'if-none-match'), 'If-None-Match') : undefined;
  if (ifNoneMatch) await resolveNoneMatch(ifNoneMatch, input, current);
  return rest.adapt ? rest.adapt(input) : input;
}

/**
 * A route refuses query parameters it does not take. On a write a misspelt flag
 * (`?dryrun=true`, `?dry-run=true`) would otherwise be ignored and the request carried out
 * as a real write, the one mistake a dry run exists to prevent; on a read a misspelt
 * `?namespce=tenant` would answer another namespace's list as if it were the one asked for.
 */
export function refuseUnknownQuery(operation: AnyOperation, query: ParsedUrlQuery): void {
  const keys = Object.keys(query ?? {});
  if (keys.length === 0) return;
  const names = queryNames(operation);
  for (const given of keys) {
    if (names.includes(given)) continue;
    const like = names.find((n) => n.toLowerCase() === given.toLowerCase().replace(/[-_]/g, ''));
    const hint = like ? `did you mean ${like}? ` : '';
    const takes = names.length > 0 ? `this route takes ${names.join(', ')}` : 'this route takes none';
    const after = operation.rest.method === 'get' ? '' : '; nothing was written';
    throw invalid(`unknown query parameter ${JSON.stringify(given.slice(0, 64))}; ${hint}${takes}${after}`);
  }
}

/**
 * The query parameters the status route's stream reads (status-stream.ts) besides the route's bindings,
 * with their types: the unknown-parameter guard takes them from here, and a test holds api/openapi.yaml to
 * every route's list.
 */
export const STREAM_QUERY = { watch: 'boolean', timeoutSeconds: 'integer', generation: 'integer' } as const;

/** The query parameters a route takes: its bindings, and on the status route the stream's. */
export function queryNames(operation: AnyOperation): string[] {
  const names = Object.keys(operation.rest.query ?? {});
  return operation.rest.watch ? [...names, ...Object.keys(STREAM_QUERY)] : names;
}

/** A body value as a refusal quotes it (at most 64 characters). */
const shown = (value: unknown): string => String(JSON.stringify(value)).slice(0, 64);

/** `read` asked at most once (the request names one agent, so its answer stands for the request). */
function readOnce(read: CurrentVersion): CurrentVersion {
  let answer: ReturnType<CurrentVersion> | undefined;
  return (namespace, name) => {
    answer ??= read(namespace, name);
    return answer;
  };
}

/** Sets `input.version` from an If-Match list: a body version it lists, else the current one it lists. */
async function resolveList(
  ifMatch: IfMatch & { any: false }, input: Record<string, unknown>, currentVersion?: CurrentVersion,
): Promise<void> {
  const body = input.version;
  if (typeof body === 'string') {
    if (ifMatch.strong.includes(body)) return;
    throw invalid(`If-Match does not list the body version ${JSON.stringify(shownTag(body))}: send one of them`);
  }
  const namespace = String(input.namespace ?? '');
  const name = String(input.name ?? '');
  const current = currentVersion ? await currentVersion(namespace, name) : undefined;
  input.version = versionFromList(ifMatch, current, namespace, name);
}

/**
 * If-Match on a create (RFC 9110 §13.1.1): false when the agent does not exist, `*`
 * included (there is no current representation), so a 412 before anything is written.
 * When it exists the condition is evaluated as on a write, and a true one leaves the
 * create to answer its 409.
 */
async function checkCreateIfMatch(
  ifMatchHeader: string | undefined, input: Record<string, unknown>, currentVersion?: CurrentVersion,
): Promise<void> {
  const ifMatch = parseIfMatch(ifMatchHeader);
  if (!ifMatch) return;
  const namespace = typeof input.namespace === 'string' ? input.namespace : '';
  const name = String(input.name ?? '');
  const current = currentVersion ? await currentVersion(namespace, name).catch((err: unknown) => {
    if (isAppError(err, 'not_found')) return undefined;
    throw err;
  }) : undefined;
  const agent = namespace ? `${namespace}/${name}` : `${name} (in the default namespace)`;
  if (current === undefined) {
    throw new PreconditionFailed(
      `agent ${agent} does not exist yet, so If-Match ${shownTag(ifMatchHeader!.trim())} cannot match ` +
      `(RFC 9110 §13.1.1); leave If-Match out to create it; nothing was written`,
    );
  }
  if (!ifMatch.any) versionFromList(ifMatch, current, namespace, name);
}

/** Refuses the write when If-None-Match names the agent's current version (or any, with `*`); else bases it on that
 * version. */
async function resolveNoneMatch(
  ifNoneMatch: IfMatch, input: Record<string, unknown>, currentVersion?: CurrentVersion,
): Promise<void> {
  const namespace = String(input.namespace ?? '');
  const name = String(input.name ?? '');
  const current = currentVersion ? await currentVersion(namespace, name) : undefined;
  const version = versionUnlessNoneMatch(ifNoneMatch, current, namespace, name);
  if (input.version === undefined && version !== undefined) input.version = version;
}

/** A path segment that stands for a whole number (a revision), or the 400 that says so. */
function wholeNumber(name: string, text: string): number {
  if (/^[0-9]{1,15}$/.test(text)) return Number(text);
  throw invalid(`${name} must be a whole number in the path, got ${JSON.stringify(text.slice(0, 64))}`);
}

/** A query parameter that stands for a whole number (a timeout), or the 400 that says so. */
export function queryInteger(name: string, text: string): number {
  if (/^[0-9]{1,15}$/.test(text)) return Number(text);
  throw invalid(`${name} must be a whole number in the query, got ${JSON.stringify(text.slice(0, 64))}`);
}

/**
 * A boolean query flag: `true` or `false`, in any case (Go's `strings.EqualFold`). A dry
 * run also takes `All`, the value Kubernetes' own `dryRun` parameter has, so a client
 * used to the API server gets a dry run and not a write. Anything else is refused: a
 * flag that silently meant "false" would turn a mistyped `?dryRun=yes` into a real write.
 */
export function queryFlag(name: string, value: string): boolean {
  const lower = value.toLowerCase();
  if (lower === 'true' || (name === 'dryRun' && lower === 'all')) return true;
  if (lower === 'false') return false;
  const accepted = name === 'dryRun' ? 'true or false (or All, as Kubernetes spells a dry run)' : 'true or false';
  throw invalid(`the query parameter ${name} must be ${accepted}; got ${JSON.stringify(value.slice(0, 64))}`);
}

/** A flag's query value; given more than once, the values must agree (`?dryRun=true&dryRun=false` says nothing). */
export function flagValue(name: string, value: unknown): string | undefined {
  const values = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
  if (values.some((v) => v !== values[0])) {
    throw invalid(`the query parameter ${name} is given more than once with different values; send it once`);
  }
  return values[0];
}

function firstQueryValue(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
}

type Origin = 'query parameter' | 'path segment';

/**
 * The first schema issue as the 400 a client can act on; unknown fields first, as Go's
 * decoder stops there. A value from the query or the path (`origins`) is named as such.
 */
export function inputError(
  issues: readonly z.core.$ZodIssue[], raw: unknown, origins: ReadonlyMap<string, Origin> = new Map(),
): AppError {
  const unknown = issues.find((i) => i.code === 'unrecognized_keys');
  if (unknown && unknown.code === 'unrecognized_keys') {
    return invalid(`invalid JSON: json: unknown field ${JSON.stringify(unknown.keys[0])}`);
  }
  const [issue] = issues;
  if (!issue) return invalid('invalid JSON');
  const field = fieldPath(issue.path) || '(body)';
  const actual = valueAt(raw, issue.path);
  if (actual === undefined) return invalid(`${field} is required`);
  const origin = issue.path.length === 1 ? origins.get(String(issue.path[0])) : undefined;
  if (origin) return invalid(`the ${origin} ${field}: ${issueText(issue, actual)}`);
  if (issue.code === 'invalid_type') {
    return invalid(wrongTypeText(field, issue.expected, actual));
  }
  return invalid(`invalid JSON: field ${JSON.stringify(field)}: ${issueText(issue, actual)}`);
}
