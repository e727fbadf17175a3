/**
 * The REST API under /api/v1, generated from the operation table: one route per operation parsing the
 * request with its input schema and calling its `run`, so REST and MCP run the same calls with the same
 * rules; plus `GET /openapi.yaml`, 405 with `Allow` for a known path, 404 otherwise, and one error
 * handler. Paths match as express 5 matched them (path-to-regexp: case-sensitive, an optional trailing
 * slash, parameters percent-decoded); GET routes answer HEAD. It reads bodies itself.
 */
import { randomUUID } from 'node:crypto';
import { match, type MatchFunction } from 'path-to-regexp';
import type { Logger } from 'pino';
import { ErrorCode, AppError, invalid, notFound } from '../../core/errors.js';
import type { RequestContext } from '../../identity/caller.js';
import { OPERATIONS, type AnyOperation, type OperationService } from '../operations.js';
import { addVary, behind, header, sendBody, type Handler, type HttpRequest, type Step } from '../http/exchange.js';
import { sendJson } from '../http/send-json.js';
import { restErrorHandler } from './error-middleware.js';
import { checkReadIfMatch, checkUnversionedIfMatch, strongEtag } from './if-match.js';
import { readRawBody, refuseBody } from './json-body.js';
import { openApiDocumentReader } from './openapi-document.js';
import { refuseUnknownQuery, restInput } from './rest-input.js';
import { statusStream } from './status-stream.js';
import { turnStream } from './turn-stream.js';

/** Where the REST API is served. */
export const REST_BASE = '/api/v1';

/** The methods the REST API answers: its operations' and HEAD (on every GET route). */
export const REST_METHODS: readonly string[] = [
  ...new Set(OPERATIONS.flatMap((o) => (o.rest.method === 'get' ? ['GET', 'HEAD'] : [o.rest.method.toUpperCase()]))),
];

/** The path of the contract below /api/v1. */
export const OPENAPI_ROUTE = '/openapi.yaml';

export interface RestRouterOptions {
  service: OperationService;
  /** Where api/openapi.yaml is; default: the package's own. */
  openapiPath?: string;
  log: Logger;
  /** The operations to serve; default: the whole table. */
  operations?: readonly AnyOperation[];
}

/** A 405 whose body is our error model (there is no dedicated code: the request is wrong). */
class MethodNotAllowedError extends AppError {
  constructor(method: string, path: string, readonly allowed: string[]) {
    super(ErrorCode.Invalid, `method ${method} is not allowed on ${REST_BASE}${path} (allowed: ${allowed.join(', ')})`);
  }

  override get status(): number {
    return 405;
  }
}

/**
 * Answers depend on the caller (their token decides what the API server shows them) and
 * on live cluster state: no shared cache may store them, and a private one revalidates
 * every time (what the Kubernetes API server sends on its own answers). Whoever serves the
 * router runs this step first (the app in front of the origin check and the bearer guard,
 * so their 403 and 401 carry it like every other answer under /api/v1).
 */
export const restCacheHeaders: Step = (_req, res) => {
  if (res.getHeader('Cache-Control') === undefined) res.setHeader('Cache-Control', 'no-cache, private');
  addVary(res, 'Authorization');
};

type Params = Partial<Record<string, string | string[]>>;

/** A path below /api/v1, the method it answers, and what runs for it (its steps, then its answer). */
interface Route {
  readonly pattern: string;
  readonly match: MatchFunction<Params>;
  /** Upper case; a GET route answers HEAD too. */
  readonly method: string;
  readonly handle: Handler;
}

/** The REST handler of the operation table, for requests whose path is under /api/v1. */
export function createRestRouter(options: RestRouterOptions): Handler {
  const { service, log } = options;
  const operations = options.operations ?? OPERATIONS;
  const readDocument = openApiDocumentReader(options.openapiPath);
  const routes: Route[] = [route(OPENAPI_ROUTE, 'get', [], async (_req, res) => {
    sendBody(res, 200, 'application/yaml', Buffer.from(await readDocument(), 'utf8'));
  })];
  for (const operation of operations) routes.push(operationRoute(operation, service, log));
  const known = knownPaths(routes);
  const onError = restErrorHandler(log);
  // Paths without parameters are looked up, not matched one pattern after another; no pattern
  // with parameters matches such a path (router.test.ts holds it), so the answer is the same.
  const byPath = new Map<string, Route[]>();
  for (const candidate of routes) {
    if (candidate.pattern.includes(':')) continue;
    byPath.set(candidate.pattern, [...byPath.get(candidate.pattern) ?? [], candidate]);
  }
  const staticRoute = (path: string, method: string): { route: Route; params: Params } | undefined => {
    // As the patterns match: one trailing slash is allowed.
    const exact = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
    const candidate = byPath.get(exact)?.find((r) => r.method === method);
    return candidate && { route: candidate, params: {} };
  };

  return async function restRouter(req, res) {
    const path = req.path.slice(REST_BASE.length) || '/';
    try {
      const method = req.method === 'HEAD' ? 'GET' : req.method ?? '';
      const found = staticRoute(path, method) ?? matchRoute(routes, path, method);
      if (!found) {
        const path405 = known.find((entry) => entry.match(path));
        if (path405) {
          req.route = `${REST_BASE}${path405.pattern}`;
          res.setHeader('Allow', path405.methods.join(', '));
          throw new MethodNotAllowedError(req.method ?? '', path, path405.methods);
        }
        throw notFound(
          `no API route ${req.method} ${REST_BASE}${path} (the routes are in ${REST_BASE}${OPENAPI_ROUTE})`);
      }
      req.route = `${REST_BASE}${found.route.pattern}`;
      req.params = found.params as Record<string, string>;
      await found.route.handle(req, res);
    } catch (err) {
      onError(err, req, res);
    }
  };
}

/** The route of one operation: parse, run, answer (with its ETag and Location). */
function operationRoute(operation: AnyOperation, service: OperationService, log: Logger): Route {
  const { rest } = operation;
  // A write without a body binding (DELETE) refuses one rather than ignore what it says.
  const steps: Step[] = rest.body ? [readRawBody] : rest.method === 'get' ? [] : [refuseBody];
  // `?watch=true` on the status route: a server-sent event stream (status-stream.ts).
  // The stream answers before restInput runs, so it refuses an unknown query parameter first.
  if (rest.watch) {
    steps.push((req) => refuseUnknownQuery(operation, req.query), statusStream(service, (req) => contextOf(req, log)));
  }
  // `Accept: text/event-stream` on a session turn: a server-sent event stream (turn-stream.ts).
  if (rest.turnStream) steps.push(turnStream(operation, service, (req) => contextOf(req, log)));
  return route(rest.path, rest.method, steps, async (req, res) => {
    const ctx = contextOf(req, log);
    const input = await restInput(
      operation, req, async (namespace, name) => (await service.getAgent(ctx, { namespace, name })).version,
    );
    const unversioned = !rest.ifMatch && !rest.createIfMatch && !rest.etag;
    const routeName = `${rest.method.toUpperCase()} ${REST_BASE}${rest.path}`;
    if (req.method === 'HEAD' && rest.head) {
      await rest.head(service, ctx, input);
      checkUnversionedIfMatch(header(req, 'if-match'), routeName);
      // No content, so no length: the GET's body is known only once its wait ends (RFC 9110 §9.3.2).
      res.writeHead(rest.status, { 'Content-Type': 'application/json' });
      res.end();
      return;
    }
    // A write is refused before it runs; a read runs first, so its own 404 or 400 answers instead.
    if (unversioned && rest.method !== 'get') checkUnversionedIfMatch(header(req, 'if-match'), routeName);
    const result = await operation.run(service, ctx, input);
    if (unversioned && rest.method === 'get') checkUnversionedIfMatch(header(req, 'if-match'), routeName);
    const etag = rest.etag?.(result);
    // A read with an entity tag evaluates If-Match too (writes do, before writing).
    if (rest.method === 'get' && rest.etag) {
      checkReadIfMatch(header(req, 'if-match'), etag, `${String(input.namespace)}/${String(input.name)}`);
    }
    if (etag) res.setHeader('ETag', strongEtag(etag));
    const location = rest.location?.(result);
    if (location) res.setHeader('Location', location);
    sendJson(res, rest.statusOf?.(result) ?? rest.status, result);
  });
}

/** The first route whose pattern matches `path` and that answers `method`. */
function matchRoute(
  routes: readonly Route[], path: string, method: string,
): { route: Route; params: Params } | undefined {
  for (const candidate of routes) {
    if (candidate.method !== method) continue;
    const matched = candidate.match(path);
    if (matched) return { route: candidate, params: matched.params };
  }
  return undefined;
}

function route(pattern: string, method: string, steps: Step[], answer: Handler): Route {
  return { pattern, match: matcher(pattern), method: method.toUpperCase(), handle: behind(steps, answer) };
}

/** A path segment that is not valid percent-encoding is the client's mistake: a 400 naming it. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch (err) {
    throw invalid(`the path segment ${JSON.stringify(segment)} is not valid percent-encoding; encode the namespace ` +
      `and name as URL path segments`, err);
  }
}

function matcher(pattern: string): MatchFunction<Params> {
  return match<Params>(pattern, { decode: decodeSegment, sensitive: true, trailing: true, end: true });
}

/** The request's context, or (without the app's context step) a fresh one. */
function contextOf(req: HttpRequest, log: Logger): RequestContext {
  const ctx = (req as Partial<HttpRequest>).ctx;
  if (ctx) return ctx;
  const requestId = randomUUID();
  return { requestId, log: log.child({ requestId }) };
}

/** Every path of the routes with the methods it answers (GET answers HEAD too), in the routes' order. */
interface KnownPath { pattern: string; match: MatchFunction<Params>; methods: string[] }

function knownPaths(routes: readonly Route[]): KnownPath[] {
  const byPattern = new Map<string, KnownPath>();
  for (const { pattern, match: matches, method } of routes) {
    const known = byPattern.get(pattern) ?? { pattern, match: matches, methods: [] };
    known.methods.push(...(method === 'GET' ? ['GET', 'HEAD'] : [method]));
    byPattern.set(pattern, known);
  }
  return [...byPattern.values()];
}
