/**
 * The REST API under /api/v1, an express 5 router generated from the operation table: a route per
 * operation (input parsed with its schema, then its `run`, as MCP runs it); `GET /openapi.yaml`; 405 with
 * `Allow` on a known path, else 404; one error middleware. Full paths, not mounted (steps and logs see the
 * request's path); case-sensitive, one optional trailing slash, parameters decoded (a malformed one a 400
 * naming it); GET answers HEAD. Bodies: json-body.ts, not `express.json`, which cannot keep the early 413
 * with `Connection: close`, the charset and duplicate-key checks, nor zstd.
 */
import { randomUUID } from 'node:crypto';
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { ErrorCode, AppError, invalid, notFound } from '../../core/errors.js';
import type { RequestContext } from '../../identity/caller.js';
import { OPERATIONS, type AnyOperation, type OperationService, type RestBinding } from '../operations.js';
import { addVary, header, sendBody, type Handler, type HttpRequest, type Step }
  from '../http/exchange.js';
import { endpoint, httpRequestOf, middleware } from '../http/express-step.js';
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

/** The methods the operation table's routes use (express's router has one function of each name). */
type RestMethod = RestBinding['method'];

/** The REST router of the operation table, for requests whose path is under /api/v1. */
export function createRestRouter(options: RestRouterOptions): Router {
  const { service, log } = options;
  const operations = options.operations ?? OPERATIONS;
  const readDocument = openApiDocumentReader(options.openapiPath);
  const router = Router({ caseSensitive: true, strict: false });
  const known = new Map<string, string[]>();
  const add = (pattern: string, method: RestMethod, steps: Step[], answer: Handler): void => {
    const upper = method.toUpperCase();
    known.set(pattern, [...known.get(pattern) ?? [], ...(upper === 'GET' ? ['GET', 'HEAD'] : [upper])]);
    const named: Step = (req) => {
      req.route = `${REST_BASE}${pattern}`;
    };
    router[method](`${REST_BASE}${pattern}`, [named, ...steps].map(middleware), endpoint(answer));
  };
  add(OPENAPI_ROUTE, 'get', [], async (_req, res) => {
    sendBody(res, 200, 'application/yaml', Buffer.from(await readDocument(), 'utf8'));
  });
  for (const operation of operations) add(...operationRoute(operation, service, log));
  // A known path asked with another method: 405 naming the methods it answers.
  for (const [pattern, methods] of known) {
    router.all(`${REST_BASE}${pattern}`, (req: Request, res: Response, next: NextFunction) => {
      httpRequestOf(req).route = `${REST_BASE}${pattern}`;
      res.setHeader('Allow', methods.join(', '));
      next(new MethodNotAllowedError(req.method, apiPath(req.path), methods));
    });
  }
  router.use((req: Request, _res: Response, next: NextFunction) => {
    next(notFound(`no API route ${req.method} ${REST_BASE}${apiPath(req.path)} ` +
      `(the routes are in ${REST_BASE}${OPENAPI_ROUTE})`));
  });
  const onError = restErrorHandler(log);
  router.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    onError(pathSegmentError(err), httpRequestOf(req), res);
  });
  return router;
}

/** The path below /api/v1 (`/` for /api/v1 itself). */
function apiPath(path: string): string {
  return path.slice(REST_BASE.length) || '/';
}

/** The route of one operation: parse, run, answer (with its ETag and Location). */
function operationRoute(
  operation: AnyOperation, service: OperationService, log: Logger,
): [string, RestMethod, Step[], Handler] {
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
  return [rest.path, rest.method, steps, async (req, res) => {
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
  }];
}

/**
 * express decodes path parameters itself and fails a malformed one with its own text; a path segment
 * that is not valid percent-encoding is the client's mistake: a 400 naming it and saying what to do.
 */
function pathSegmentError(err: unknown): unknown {
  if (!(err instanceof URIError)) return err;
  const segment = /^Failed to decode param '(.*)'$/s.exec(err.message)?.[1];
  if (segment === undefined) return err;
  return invalid(`the path segment ${JSON.stringify(segment)} is not valid percent-encoding; encode the namespace ` +
    `and name as URL path segments`, err);
}

/** The request's context, or (without the app's context step) a fresh one. */
function contextOf(req: HttpRequest, log: Logger): RequestContext {
  const { ctx }: Partial<Pick<HttpRequest, 'ctx'>> = req;
  if (ctx) return ctx;
  const requestId = randomUUID();
  return { requestId, log: log.child({ requestId }) };
}
