/**
 * The sandbox's own admin endpoints, beside the Kubernetes API and for the sandbox
 * administrator only (group system:masters): `GET /sandbox/counters` returns the request
 * counters, `POST /sandbox/counters/reset` zeroes them. Admin requests are not counted.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { forbiddenError } from '../auth/authorizer.js';
import { statusErrors } from '../api/status.js';
import type { RequestCounters } from '../counters.js';
import type { UserInfo } from '../ops/types.js';
import { sendJson } from './http-io.js';

/** The path prefix of admin endpoints. */
export const ADMIN_PREFIX = '/sandbox/';

/** Serve an admin request from an authenticated user. */
export function handleAdmin(path: string, req: IncomingMessage, res: ServerResponse, user: UserInfo, counters: RequestCounters): void {
  const verb = (req.method ?? 'GET').toLowerCase();
  if (!user.groups.includes('system:masters')) {
    throw forbiddenError({
      user, verb, path, isResourceRequest: false, apiGroup: '', apiVersion: '', resource: '', subresource: '', namespace: '', name: '',
    });
  }
  if (path === '/sandbox/counters') {
    if (verb !== 'get') throw statusErrors.methodNotAllowed();
    return sendJson(res, 200, counters.snapshot());
  }
  if (path === '/sandbox/counters/reset') {
    if (verb !== 'post') throw statusErrors.methodNotAllowed();
    counters.reset();
    return sendJson(res, 200, counters.snapshot());
  }
  throw statusErrors.pathNotFound();
}
