/**
 * Authentication of sandbox API requests, as kube-apiserver's authenticators chain: a bearer token
 * becomes a user (name, groups); a request no authenticator accepts is 401. This is the trust boundary:
 * everything after it sees only the UserInfo, never the token. Static tokens (admin, the agent-manager
 * service account) come first; OIDC id_tokens (oidc-authenticator.ts) are another link of the chain.
 */
import type { IncomingMessage } from 'node:http';
import type { UserInfo } from '../ops/op-options.js';

/** The group every authenticated user is in. */
export const AUTHENTICATED_GROUP = 'system:authenticated';

/** Turns a request's credentials into a user; undefined when it does not recognise them. */
export interface Authenticator {
  authenticate(token: string, req: IncomingMessage): UserInfo | undefined | Promise<UserInfo | undefined>;
}

/** The bearer token of a request, or '' when there is none. */
export function bearerToken(req: IncomingMessage): string {
  const header = req.headers.authorization ?? '';
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : '';
}

/** Fixed tokens, like kube-apiserver's `--token-auth-file`. */
export class StaticTokenAuthenticator implements Authenticator {
  private readonly users: Map<string, UserInfo>;

  constructor(tokens: Iterable<[string, UserInfo]> = []) {
    this.users = new Map(tokens);
  }

  /** Add (or replace) a token. */
  set(token: string, user: UserInfo): void {
    this.users.set(token, user);
  }

  authenticate(token: string): UserInfo | undefined {
    return this.users.get(token);
  }
}

/** Ask each authenticator in turn; the first user wins. */
export class AuthenticatorChain implements Authenticator {
  private readonly chain: Authenticator[];

  constructor(...authenticators: Authenticator[]) {
    this.chain = authenticators;
  }

  /** Append an authenticator (OIDC, …). */
  add(authenticator: Authenticator): void {
    this.chain.push(authenticator);
  }

  /** The first user an authenticator names, in group `system:authenticated` as the apiserver adds it. */
  async authenticate(token: string, req: IncomingMessage): Promise<UserInfo | undefined> {
    if (!token) return undefined;
    for (const authenticator of this.chain) {
      const user = await authenticator.authenticate(token, req);
      if (!user) continue;
      return user.groups.includes(AUTHENTICATED_GROUP)
        ? user
        : { ...user, groups: [...user.groups, AUTHENTICATED_GROUP] };
    }
    return undefined;
  }
}

/** The username of a service account, as Kubernetes spells it. */
export function serviceAccountUser(namespace: string, name: string): UserInfo {
  return {
    username: `system:serviceaccount:${namespace}:${name}`,
    groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'],
  };
}

/** The sandbox's administrator (cluster-admin through the system:masters group). */
export const ADMIN_USER: UserInfo = { username: 'sandbox-admin', groups: ['system:masters', 'system:authenticated'] };
