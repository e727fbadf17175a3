/**
 * The sandbox API server's request pipeline over HTTPS: parse the request line,
 * authenticate (401 otherwise), act as whom the `Impersonate-*` headers name (403 when the
 * caller may not), count, run the hook chain, authorize (403 otherwise), then serve
 * discovery, the admin endpoints, an access review or a resource. Every failure is
 * answered with a Status body; unexpected ones are 500 InternalError and logged.
 */
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { statusErrors, type StatusError } from '../api/status.js';
import type { Authenticator } from '../auth/authenticator.js';
import { bearerToken } from '../auth/authenticator.js';
import { impersonatedUser } from '../auth/impersonation.js';
import { forbiddenError, type AuthorizationAttributes, type Authorizer } from '../auth/authorizer.js';
import { DISCOVERY, type RequestCounters } from '../counters.js';
import type { FaultInjector } from '../faults.js';
import type { HookChain, HookContext } from '../hooks.js';
import type { OpsEnv, UserInfo } from '../ops/op-options.js';
import { isReview } from '../resources/reviews.js';
import { resourceKey } from '../resources/resource-def.js';
import { ADMIN_PREFIX, handleAdmin } from './admin.js';
import { apiGroup, apiGroupList, apiResourceList, apiVersions, versionInfo } from './discovery.js';
import { answerInYaml, sendJson, sendStatus, toStatusError } from './http-io.js';
import { negotiate } from './negotiate.js';
import { openApiGroupVersion, openApiRoot } from './openapi.js';
import { parseRequestInfo, type RequestInfo } from './request-info.js';
import { handleResource } from './resource-handlers.js';
import { serveReview } from './review-handlers.js';
import type { WatchTiming } from './watch-stream.js';

/** The logging the server does: 5xx at error, every request at debug; the controllers' steps at info. */
export interface SandboxLogger {
  debug(obj: object, msg?: string): void;
  /** What the simulated controllers did (installs, agents becoming Ready), when the logger has it. */
  info?(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** What the pipeline runs with; `authorizer` may be swapped while serving. */
export interface ApiServerConfig {
  readonly env: OpsEnv;
  readonly authenticator: Authenticator;
  authorizer: Authorizer;
  readonly counters: RequestCounters;
  readonly hooks: HookChain;
  /** Served at the admin endpoints when set. */
  readonly faults?: FaultInjector;
  readonly timing: WatchTiming;
  readonly log?: SandboxLogger;
  /** host:port clients use, for /api's serverAddressByClientCIDRs. */
  serverAddress: string;
}

const HEALTH = new Set(['/healthz', '/livez', '/readyz']);

function serveNonResource(config: ApiServerConfig, info: RequestInfo, req: IncomingMessage, res: ServerResponse): void {
  if (info.verb !== 'get' && info.verb !== 'head') throw statusErrors.methodNotAllowed();
  const parts = info.path.split('/').filter(Boolean);
  const registry = config.env.registry;
  let body: unknown;
  if (info.path === '/version') body = versionInfo();
  else if (info.path === '/api') body = apiVersions(config.serverAddress);
  else if (info.path === '/apis') body = apiGroupList(registry);
  else if (parts[0] === 'api' && parts.length === 2) body = apiResourceList(registry, '', parts[1]!);
  else if (parts[0] === 'apis' && parts.length === 2) body = apiGroup(registry, parts[1]!);
  else if (parts[0] === 'apis' && parts.length === 3) body = apiResourceList(registry, parts[1]!, parts[2]!);
  else if (info.path === '/openapi/v3') body = openApiRoot(registry);
  else if (parts[0] === 'openapi' && parts[1] === 'v3' && parts[2] === 'api' &&
    parts.length === 4) body = openApiGroupVersion(registry, '', parts[3]!);
  else if (parts[0] === 'openapi' && parts[1] === 'v3' && parts[2] === 'apis' && parts.length === 5) {
    body = openApiGroupVersion(registry, parts[3]!, parts[4]!);
  }
  // Unknown paths (including /openapi/v2, which kubectl wants as protobuf) are 404 before any negotiation.
  if (body === undefined) throw statusErrors.pathNotFound();
  const chosen = negotiate(req.headers.accept, false);
  if (chosen.kind === 'json' && chosen.yaml) answerInYaml(res);
  sendJson(res, 200, body);
}

function attributesOf(info: RequestInfo, user: UserInfo): AuthorizationAttributes {
  // kube-apiserver's RequestInfo names a namespace object's own namespace as the request's
  // namespace (`namespaces "x" is forbidden: … in the namespace "x"`), so a RoleBinding in
  // "x" can grant reading namespace "x".
  const namespace = info.resource === 'namespaces' && info.name ? info.name : info.namespace;
  return {
    user, verb: info.verb, isResourceRequest: info.isResourceRequest, path: info.path, apiGroup: info.group,
    apiVersion: info.version, resource: info.resource, subresource: info.subresource, namespace, name: info.name,
  };
}

async function serve(
  config: ApiServerConfig, info: RequestInfo, user: UserInfo, req: IncomingMessage, res: ServerResponse,
): Promise<void> {
  const decision = await config.authorizer.authorize(attributesOf(info, user));
  if (!decision.allowed) throw forbiddenError(attributesOf(info, user), decision.reason);
  if (!info.isResourceRequest) return serveNonResource(config, info, req, res);
  const def = config.env.registry.find(info.group, info.version, info.resource);
  if (!def || info.verb === 'unknown') throw statusErrors.pathNotFound();
  if (isReview(def)) return serveReview(config.authorizer, def, info, user, req, res);
  await handleResource({ env: config.env, timing: config.timing }, def, info, req, res);
}

async function handle(config: ApiServerConfig, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const info = parseRequestInfo(req.method ?? 'GET', req.url ?? '/');
  if (HEALTH.has(info.path)) {
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('ok');
    return;
  }
  const caller = await config.authenticator.authenticate(bearerToken(req), req);
  if (!caller) throw statusErrors.unauthorized();
  const user = await impersonatedUser(req, caller, config.authorizer);
  if (info.path.startsWith(ADMIN_PREFIX)) return handleAdmin(info.path, req, res, user, config);
  const resource = info.isResourceRequest
    ? `${resourceKey({ group: info.group, resource: info.resource })}${info.subresource ? `/${info.subresource}` : ''}`
    : DISCOVERY;
  config.counters.record({ verb: info.verb, resource, user: user.username });
  const ctx: HookContext = {
    info, user, req, res,
    fail: (error: StatusError) => sendStatus(res, error.status),
    drop: () => req.socket.destroy(),
  };
  await config.hooks.run(ctx, () => serve(config, info, user, req, res));
}

/** Create the HTTPS server (not yet listening). */
export function createApiServer(config: ApiServerConfig, tls: { key: string; cert: string }): Server {
  return createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const started = Date.now();
    handle(config, req, res)
      .catch((err: unknown) => {
        const error = toStatusError(err);
        if (error.code >= 500) {
          config.log?.error({ err, method: req.method, path: req.url }, 'sandbox API request failed');
        }
        sendStatus(res, error.status);
      })
      .finally(() => {
        config.log?.debug({ method: req.method, path: req.url, code: res.statusCode, ms: Date.now() - started },
          'sandbox API request');
      });
  });
}
