/**
 * The sandbox's admin endpoints beside the Kubernetes API, for group system:masters only and never
 * counted: `/sandbox/counters` (and `/reset`), and `/sandbox/faults` to list, disarm, add `latency`,
 * `fail` the next matching requests (see FailureRule) or put a pod in `crashloop`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { forbiddenError } from '../auth/authorizer.js';
import { isObject, type JsonObject } from '../api/json.js';
import { statusErrors } from '../api/status.js';
import type { RequestCounters } from '../counters.js';
import type { FaultInjector, FailureRule } from '../faults.js';
import type { UserInfo } from '../ops/op-options.js';
import { decodeBody, readBody, sendJson } from './http-io.js';

/** The path prefix of admin endpoints. */
export const ADMIN_PREFIX = '/sandbox/';

/** What the admin endpoints act on. */
export interface AdminEnv {
  readonly counters: RequestCounters;
  readonly faults?: FaultInjector;
}

async function jsonBody(req: IncomingMessage): Promise<JsonObject> {
  const body = decodeBody(await readBody(req));
  if (!isObject(body)) throw statusErrors.badRequest('the body must be a JSON object');
  return body;
}

/** Run a fault operation; its refusals (bad arguments, a missing pod) become 400/404 Status bodies. */
function guarded<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof Error && err.name === 'StatusError') throw err;
    throw statusErrors.badRequest(err instanceof Error ? err.message : String(err));
  }
}

async function handleFaults(
  path: string, verb: string, req: IncomingMessage, res: ServerResponse, faults: FaultInjector,
): Promise<void> {
  if (path === '/sandbox/faults') {
    if (verb === 'delete') faults.clear();
    else if (verb !== 'get') throw statusErrors.methodNotAllowed();
    return sendJson(res, 200, faults.snapshot());
  }
  if (verb !== 'post') throw statusErrors.methodNotAllowed();
  const body = await jsonBody(req);
  if (path === '/sandbox/faults/latency') {
    guarded(() => faults.setLatency(Number(body.ms)));
    return sendJson(res, 200, faults.snapshot());
  }
  if (path === '/sandbox/faults/fail') {
    // failNext checks every field it uses and throws for a bad one, which guarded answers 400.
    guarded(() => faults.failNext(body as FailureRule));
    return sendJson(res, 200, faults.snapshot());
  }
  if (path === '/sandbox/faults/crashloop') {
    const { namespace, pod, container } = body;
    if (typeof namespace !== 'string' || typeof pod !== 'string') {
      throw statusErrors.badRequest('crashloop needs "namespace" and "pod" (strings)');
    }
    const updated = guarded(() => faults.crashLoop({ namespace, pod,
      container: typeof container === 'string' ? container : undefined }));
    return sendJson(res, 200, updated);
  }
  throw statusErrors.pathNotFound();
}

/** Serve an admin request from an authenticated user. */
export async function handleAdmin(
  path: string, req: IncomingMessage, res: ServerResponse, user: UserInfo, env: AdminEnv,
): Promise<void> {
  const verb = (req.method ?? 'GET').toLowerCase();
  if (!user.groups.includes('system:masters')) {
    throw forbiddenError({
      user, verb, path, isResourceRequest: false, apiGroup: '', apiVersion: '', resource: '', subresource: '',
      namespace: '', name: '',
    });
  }
  if (path === '/sandbox/counters') {
    if (verb !== 'get') throw statusErrors.methodNotAllowed();
    return sendJson(res, 200, env.counters.snapshot());
  }
  if (path === '/sandbox/counters/reset') {
    if (verb !== 'post') throw statusErrors.methodNotAllowed();
    env.counters.reset();
    return sendJson(res, 200, env.counters.snapshot());
  }
  if (env.faults && (path === '/sandbox/faults' || path.startsWith('/sandbox/faults/'))) {
    return handleFaults(path, verb, req, res, env.faults);
  }
  throw statusErrors.pathNotFound();
}
