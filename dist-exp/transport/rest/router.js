/**
 * The REST API under /api/v1, generated from the operation table: one route per operation parsing the
 * request with its input schema and calling its `run`, so REST and MCP run the same calls with the same
 * rules; plus `GET /openapi.yaml`, 405 with `Allow` for a known path, 404 otherwise, and the one error
 * middleware. Mounted behind the request context (and the bearer guard with OAuth); it reads bodies
 * itself, so no app-level body parser may run before it.
 */
import { randomUUID } from 'node:crypto';
import express, {} from 'express';
import { ErrorCode, AppError, notFound } from '../../core/errors.js';
import { OPERATIONS } from '../operations.js';
import { restErrorHandler } from './error-middleware.js';
import { checkReadIfMatch, strongEtag } from './if-match.js';
import { readRawBody, refuseBody } from './json-body.js';
import { openApiDocumentReader } from './openapi-document.js';
import { refuseUnknownQuery, restInput } from './rest-input.js';
import { sendJson } from '../http/send-json.js';
import { statusStream } from './status-stream.js';
import { turnStream } from './turn-stream.js';
/** The path of the contract below /api/v1. */
export const OPENAPI_ROUTE = '/openapi.yaml';
/** A 405 whose body is our error model (there is no dedicated code: the request is wrong). */
class MethodNotAllowedError extends AppError {
    allowed;
    constructor(method, path, allowed) {
        super(ErrorCode.Invalid, `method ${method} is not allowed on /api/v1${path} (allowed: ${allowed.join(', ')})`);
        this.allowed = allowed;
    }
    get status() {
        return 405;
    }
}
/**
 * Answers depend on the caller (their token decides what the API server shows them) and
 * on live cluster state: no shared cache may store them, and a private one revalidates
 * every time (what the Kubernetes API server sends on its own answers). The app mounts
 * this in front of the origin check and the bearer guard too, so their 403 and 401 carry
 * it like every other answer under /api/v1.
 */
export const restCacheHeaders = (_req, res, next) => {
    // Mounted in front of the guard and again in the router (which also runs on its own):
    // the second pass finds the headers set and leaves them.
    if (res.getHeader('Cache-Control') === undefined)
        res.setHeader('Cache-Control', 'no-cache, private');
    if (res.getHeader('Vary') === undefined)
        res.setHeader('Vary', 'Authorization');
    else
        res.vary('Authorization');
    next();
};
/** The REST router of the operation table. */
export function createRestRouter(options) {
    const { service, log } = options;
    const operations = options.operations ?? OPERATIONS;
    const router = express.Router({ caseSensitive: true });
    const readDocument = openApiDocumentReader(options.openapiPath);
    router.use(restCacheHeaders);
    router.get(OPENAPI_ROUTE, async (_req, res) => {
        const text = await readDocument();
        res.status(200).setHeader('Content-Type', 'application/yaml');
        res.send(Buffer.from(text, 'utf8'));
    });
    for (const operation of operations) {
        // A write without a body binding (DELETE) refuses one rather than ignore what it says.
        const handlers = operation.rest.body ? [readRawBody]
            : operation.rest.method === 'get' ? [] : [refuseBody];
        // `?watch=true` on the status route: a server-sent event stream (status-stream.ts).
        // The stream answers before restInput runs, so it refuses an unknown query parameter first.
        if (operation.rest.watch) {
            handlers.push((req, _res, next) => {
                refuseUnknownQuery(operation, req.query);
                next();
            }, statusStream(service, (req) => contextOf(req, log)));
        }
        // `Accept: text/event-stream` on a session turn: a server-sent event stream (turn-stream.ts).
        if (operation.rest.turnStream)
            handlers.push(turnStream(operation, service, (req) => contextOf(req, log)));
        router[operation.rest.method](operation.rest.path, ...handlers, async (req, res) => {
            const ctx = contextOf(req, log);
            const input = await restInput(operation, req, async (namespace, name) => (await service.getAgent(ctx, { namespace, name })).version);
            const result = await operation.run(service, ctx, input);
            const etag = operation.rest.etag?.(result);
            // A read with an entity tag evaluates If-Match too (writes do, before writing).
            if (operation.rest.method === 'get' && operation.rest.etag) {
                checkReadIfMatch(req.get('if-match'), etag, `${String(input.namespace)}/${String(input.name)}`);
            }
            if (etag)
                res.setHeader('ETag', strongEtag(etag));
            const location = operation.rest.location?.(result);
            if (location)
                res.setHeader('Location', location);
            sendJson(res, operation.rest.statusOf?.(result) ?? operation.rest.status, result);
        });
    }
    for (const [path, methods] of allowedMethods(operations)) {
        router.all(path, (req) => {
            throw new MethodNotAllowedError(req.method, req.path, methods);
        });
    }
    router.use((req) => {
        throw notFound(`no API route ${req.method} /api/v1${req.path} (the routes are in /api/v1/openapi.yaml)`);
    });
    router.use(allowHeader);
    router.use(restErrorHandler(log));
    return router;
}
/** The request's context, or (without the app's context middleware) a fresh one. */
function contextOf(req, log) {
    const ctx = req.ctx;
    if (ctx)
        return ctx;
    const requestId = randomUUID();
    return { requestId, log: log.child({ requestId }) };
}
/** Every path with the methods it answers (GET answers HEAD too). */
function allowedMethods(operations) {
    const byPath = new Map([[OPENAPI_ROUTE, ['GET', 'HEAD']]]);
    for (const { rest } of operations) {
        const methods = byPath.get(rest.path) ?? [];
        methods.push(rest.method.toUpperCase());
        if (rest.method === 'get')
            methods.push('HEAD');
        byPath.set(rest.path, methods);
    }
    return byPath;
}
// Sets `Allow` on a 405 before the error middleware renders it.
const allowHeader = (err, _req, res, next) => {
    if (err instanceof MethodNotAllowedError)
        res.setHeader('Allow', err.allowed.join(', '));
    next(err);
};
//# sourceMappingURL=router.js.map