/**
 * What the muster double does with a request, decided from its path, the fault it was told to
 * answer and the bearer token alone, in muster's order: the protected-resource metadata is public,
 * any other path is 404, an `http-error` fault answers 500, and a token muster does not know is 401
 * before any tool is reached. Pure, so each rule is tested on plain values.
 */

/** The path muster serves MCP on. */
export const MUSTER_PATH = '/mcp';

/** Where RFC 9728 clients look for the resource's metadata. */
export const METADATA_PATH = '/.well-known/oauth-protected-resource';

/** `tool-error`: every filter_tools call is an error result; `http-error`: every request is answered 500. */
export type MusterFault = 'tool-error' | 'http-error' | undefined;

/** Where a request goes: a refusal, the metadata, or MCP as the person its token names. */
export type MusterRoute =
  | { kind: 'metadata' }
  | { kind: 'not-found' }
  | { kind: 'failing' }
  | { kind: 'unauthorized' }
  | { kind: 'mcp'; token: string; subject: string };

/** Decide where a request with this URL and Authorization header goes. */
export function musterRoute(
  url: string, authorization: string | undefined, fault: MusterFault, tokens: ReadonlyMap<string, string>,
): MusterRoute {
  const path = new URL(url, 'http://muster').pathname;
  if (path === METADATA_PATH || path === `${METADATA_PATH}${MUSTER_PATH}`) return { kind: 'metadata' };
  if (path !== MUSTER_PATH) return { kind: 'not-found' };
  if (fault === 'http-error') return { kind: 'failing' };
  const token = /^Bearer (\S+)$/i.exec(authorization ?? '')?.[1];
  const subject = token === undefined ? undefined : tokens.get(token);
  if (token === undefined || subject === undefined) return { kind: 'unauthorized' };
  return { kind: 'mcp', token, subject };
}
