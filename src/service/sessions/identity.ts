/**
 * Whom the session calls act for towards kagent. With OAuth the caller's own id_token
 * is presented and the caller is the A2A user (kagent's `X-User-Id`: their email, else
 * their subject), so each caller sees only the conversations they started. Without
 * OAuth no credential is sent at all: the service's ServiceAccount token is never
 * offered to an agent, and kagent's default user holds every conversation.
 */
import { AppError, ErrorCode } from '../../core/errors.js';
import { callerName, type RequestContext } from '../../identity/caller.js';
import type { A2AIdentity } from './session-port.js';

export function a2aIdentity(ctx: RequestContext, oauth: boolean): A2AIdentity {
  if (!oauth) return {};
  if (!ctx.token) {
    throw new AppError(ErrorCode.Unauthenticated, 'the session tools act as the caller towards kagent and the ' +
      'request carries no identity token (send your id_token as Authorization: Bearer)');
  }
  return { token: ctx.token, user: callerName(ctx.caller) };
}
