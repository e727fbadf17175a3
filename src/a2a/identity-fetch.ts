/**
 * The fetch one caller's A2A calls go through: the service's outbound fetch (proxy
 * settings, outbound metrics and spans) with the caller's credential and A2A user added
 * to every request, the agent card's included. Redirects are refused rather than
 * followed, so the caller's token goes to the configured endpoint and nowhere else.
 */
import type { A2AIdentity } from '../service/sessions/session-port.js';

/** kagent's header for the A2A user a request acts for. */
export const USER_HEADER = 'X-User-Id';

export function identityFetch(base: typeof fetch, identity: A2AIdentity): typeof fetch {
  const wrapped: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    headers.delete('authorization');
    headers.delete(USER_HEADER);
    if (identity.token) headers.set('Authorization', `Bearer ${identity.token}`);
    if (identity.user) headers.set(USER_HEADER, identity.user);
    return base(input, { ...init, headers, redirect: 'error' });
  };
  return wrapped;
}
