/**
 * The main listener, an express 5 application; its middleware in the order a request meets it: context,
 * metrics, access log; open routes (RFC 9728); `/healthz` and `/readyz` (never guarded, never asking a
 * dependency, so an outage shows in real answers, not as restarted pods; `/readyz` 503 once shutdown
 * began); `/api/v1` and the MCP path, each behind CORS, the origin check and the optional bearer guard
 * (MCP loaded on first use or by `warmUp`); a JSON 404 and one error middleware. Trust boundary: `auth`
 * (OAuth) stands before `/api/v1` and MCP only; without it the service acts as its ServiceAccount.
 */
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { invalid, notFound, toAppError, toRestErrorBody, type AppError } from './core/errors.js';
import { asObject } from './core/json.js';
import type { Metrics } from './metrics/app-metrics.js';
import { jsonRpcError } from './transport/mcp/json-rpc-error.js';
import { lazyMcpHandler } from './transport/mcp/lazy-handler.js';
import type { OperationService } from './transport/operations.js';
import { createRestRouter, REST_BASE, REST_METHODS, restCacheHeaders } from './transport/rest/router.js';
import { bindCaller, requestContext } from './transport/http/context.js';
import { sendCompactJson, sendText, type HttpRequest, type HttpResponse, type Step }
  from './transport/http/exchange.js';
import { chainFor, endpoint, httpRequestOf, middleware } from './transport/http/express-step.js';
import { httpMetrics } from './transport/http/http-metrics.js';
import type { Lifecycle } from './transport/http/lifecycle.js';
import { cors } from './transport/http/cors.js';
import { originGuard, originSet } from './transport/http/origin-guard.js';
import { requestLogger } from './transport/http/request-log.js';

/** The bearer guard: one for both surfaces, or one each (each 401 names its own metadata document). */
export type AuthGuard = Step | { rest: Step; mcp: Step };

/** The app: an express 5 application, itself node's request listener. */
export type App = Express;

export interface AppOptions {
  service: OperationService;
  log: Logger;
  /** Reported by MCP `initialize` (package.json's version). */
  version: string;
  /** Where MCP is served; default `/mcp`. */
  mcpPath?: string;
  /** Serve MCP at all; default true. */
  mcpEnabled?: boolean;
  /** The guard in front of `/api/v1` and MCP; absent means no authentication (ServiceAccount). */
  auth?: AuthGuard;
  /** Open routes mounted before the guarded ones (OAuth metadata). */
  publicRoutes?: Step;
  metrics?: Metrics;
  /**
   * Browser origins accepted besides loopback ones, and answered CORS (pass the public base URL
   * when there is one); requests without an Origin header are never affected.
   */
  allowedOrigins?: readonly string[];
  /** Turns `/readyz` to 503 once shutdown begins; absent means always ready. */
  lifecycle?: Lifecycle;
}

/** The request headers both surfaces read (besides each one's own), for CORS preflights. */
const READ_HEADERS = ['Authorization', 'Content-Type', 'Content-Encoding', 'Accept', 'Last-Event-ID', 'X-Request-Id',
  'traceparent', 'tracestate'];
/** The response headers of both surfaces a page may need (a 401's challenge, a 503's retry, a 405's Allow). */
const ANSWER_HEADERS = ['WWW-Authenticate', 'Retry-After', 'X-Request-Id', 'Allow', 'Accept-Encoding'];

/** CORS for a listed origin on REST: its methods, If-Match and If-None-Match, an answer's ETag and Location. */
const REST_CORS = {
  methods: REST_METHODS,
  allowHeaders: [...READ_HEADERS, 'If-Match', 'If-None-Match'],
  exposeHeaders: ['ETag', 'Location', ...ANSWER_HEADERS, 'Accept-Patch'],
};

/**
 * CORS on MCP: POST, and GET and DELETE too, which the endpoint answers 405 (no stream, no session) and
 * a browser client must be able to read as such; the MCP headers both ways.
 */
const MCP_CORS = {
  methods: ['GET', 'POST', 'DELETE'],
  allowHeaders: [...READ_HEADERS, 'Mcp-Protocol-Version', 'Mcp-Session-Id'],
  exposeHeaders: ['Mcp-Session-Id', 'Mcp-Protocol-Version', ...ANSWER_HEADERS],
};

/** The probe paths; answered before anything that could fail or be guarded. */
export const PROBE_PATHS = ['/healthz', '/readyz'] as const;

/** Build the app. */
export function createApp(options: AppOptions): App {
  const { service, log, version, metrics } = options;
  const mcpPath = options.mcpPath ?? '/mcp';
  const guards = splitGuard(options.auth);
  const allowedOrigins = options.allowedOrigins;
  // One set for CORS and the origin check: every origin CORS answers is one the check accepts.
  const listed = originSet(allowedOrigins);
  const app = express();
  configure(app);
  // The first steps (context, metrics, log) are synchronous and never answer.
  app.use(middleware(requestContext(log)));
  if (metrics) app.use(middleware(httpMetrics(metrics, mcpPath)));
  app.use(middleware(requestLogger(log)));
  // The open routes (RFC 9728 metadata) answer their own paths before any guarded one.
  if (options.publicRoutes) app.use(middleware(options.publicRoutes));
  app.get([...PROBE_PATHS], (req: Request, res: Response) => {
    const path = req.path;
    httpRequestOf(req).route = path;
    if (path === '/readyz' && options.lifecycle?.stopping) sendText(res, 503, 'shutting down');
    else sendText(res, 200, 'ok');
  });
  const restSteps = [restCacheHeaders, cors({ allowedOrigins: listed, ...REST_CORS }), originGuard({ allowedOrigins }),
    ...guards.rest, bindCaller()];
  app.use(chainFor((req) => req.path === REST_BASE || req.path.startsWith(`${REST_BASE}/`),
    [...restSteps.map(middleware), createRestRouter({ service, log })]));
  if (options.mcpEnabled ?? true) {
    const mcpOrigin = originGuard({
      allowedOrigins,
      respond: (res, message) => {
        sendCompactJson(res, 403, jsonRpcError(-32000, `Forbidden: ${message}`));
      },
    });
    const lazy = lazyMcpHandler({ service, log, version, metrics });
    const mcpSteps = [cors({ allowedOrigins: listed, ...MCP_CORS }), mcpOrigin, ...guards.mcp, bindCaller()];
    const setRoute: Step = (req) => {
      req.route = mcpPath;
    };
    app.use(chainFor((req) => req.path === mcpPath || req.path === `${mcpPath}/`,
      [middleware(setRoute), ...mcpSteps.map(middleware), endpoint(lazy.handler)]));
    warmUps.set(app, lazy.load);
  }
  app.use((req: Request, res: Response) => {
    const error = notFound(`no route for ${req.method} ${req.path}`);
    sendCompactJson(res, error.status, toRestErrorBody(error));
  });
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    finalError(err, httpRequestOf(req), res);
  });
  return app;
}

/**
 * What express adds that our answers do not carry: no `X-Powered-By`, no ETag of its own (ours are
 * the agents' versions), paths matched case-sensitively and strictly (`/healthz/` is not a probe), the
 * query parsed by node's querystring (repeated keys as arrays), and no proxy trusted.
 */
function configure(app: App): void {
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  app.set('query parser', 'simple');
  app.set('trust proxy', false);
}

const warmUps = new WeakMap<App, () => Promise<unknown>>();

/**
 * Loads what the app defers until its first request (the MCP handler), so that request
 * does not wait for it; `serve` calls it once the listeners are bound.
 */
export async function warmUp(app: App): Promise<void> {
  await warmUps.get(app)?.();
}

function splitGuard(auth: AuthGuard | undefined): { rest: Step[]; mcp: Step[] } {
  if (!auth) return { rest: [], mcp: [] };
  if (typeof auth === 'function') return { rest: [auth], mcp: [auth] };
  return { rest: [auth.rest], mcp: [auth.mcp] };
}

/** What an error that reached the app level is answered with. */
export function errorForResponse(err: unknown): { status: number; error: AppError } {
  // Errors of the libraries a request meets (the MCP SDK's transport) may carry a 4xx status meant for the client.
  const fields = asObject(err);
  const status = fields.status ?? fields.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500 && fields.expose !== false) {
    const message = err instanceof Error ? err.message : String(err);
    return { status, error: invalid(message) };
  }
  const error = toAppError(err);
  return { status: error.status, error };
}

/** The answer to an error no handler answered; a response already under way is cut instead. */
function finalError(err: unknown, req: HttpRequest, res: HttpResponse): void {
  const { status, error } = errorForResponse(err);
  // An error may reach here before the context step ran.
  const { ctx }: Partial<Pick<HttpRequest, 'ctx'>> = req;
  const requestLog = ctx?.log;
  if (res.headersSent) {
    requestLog?.error({ err: error.message, code: error.code }, 'request failed after its answer began');
    res.destroy();
    return;
  }
  if (error.code === 'unsupported') {
    requestLog?.info({ message: error.message, code: error.code }, 'request not offered here');
  } else if (status >= 500) {
    requestLog?.error({ err: error.message, code: error.code }, 'request failed');
  }
  sendCompactJson(res, status, toRestErrorBody(error));
}
