/**
 * User impersonation as kube-apiserver's filter applies it after authentication: `Impersonate-User`,
 * `-Group`, `-Uid` and `-Extra-<key>` (what `kubectl --as` sends) run the request as that user once the
 * authorizer lets the caller `impersonate` each (resources `users`/`serviceaccounts`, `groups`, `uids`,
 * `userextras/<key>`). A refusal is the real 403 text; groups, UID or extras without a user are the real
 * 500. Ignoring the headers would answer as the administrator a request a real cluster answers as someone
 * else, so an RBAC test through `--as` would pass for the wrong reason.
 */
import type { IncomingMessage } from 'node:http';
import { statusErrors } from '../api/status.js';
import type { UserInfo } from '../ops/op-options.js';
import { AUTHENTICATED_GROUP } from './authenticator.js';
import { forbiddenError, type AuthorizationAttributes, type Authorizer } from './authorizer.js';

const UNAUTHENTICATED_GROUP = 'system:unauthenticated';
const ANONYMOUS = 'system:anonymous';
const AUTHENTICATION_GROUP = 'authentication.k8s.io';
const EXTRA_PREFIX = 'impersonate-extra-';
const SERVICE_ACCOUNT = /^system:serviceaccount:([^:]+):([^:]+)$/;

/** One thing the caller asks to act as, with the authorization attributes that guard it. */
interface ImpersonationRequest {
  readonly apiGroup: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
  /** How Go prints the request's ObjectReference (`{Group  devs    }`), for the error text. */
  readonly printed: string;
}

/** Every value of a header, each repetition apart (a group name may hold a comma). */
function headerValues(req: IncomingMessage, name: string): string[] {
  return (req.headersDistinct[name] ?? []).filter((v) => v !== '');
}

const printed = (kind: string, namespace: string, name: string, apiVersion = '', fieldPath = ''): string =>
  `{${[kind, namespace, name, '', apiVersion, '', fieldPath].join(' ')}}`;

function requestsOf(req: IncomingMessage): { requests: ImpersonationRequest[]; user: string; groups: string[] } {
  const requests: ImpersonationRequest[] = [];
  const user = headerValues(req, 'impersonate-user')[0] ?? '';
  if (user) {
    const sa = SERVICE_ACCOUNT.exec(user);
    requests.push(sa
      ? { apiGroup: '', resource: 'serviceaccounts', subresource: '', namespace: sa[1]!, name: sa[2]!,
          printed: printed('ServiceAccount', sa[1]!, sa[2]!) }
      : { apiGroup: '', resource: 'users', subresource: '', namespace: '', name: user,
          printed: printed('User', '', user) });
  }
  const groups = headerValues(req, 'impersonate-group');
  for (const group of groups) {
    requests.push({ apiGroup: '', resource: 'groups', subresource: '', namespace: '', name: group,
      printed: printed('Group', '', group) });
  }
  for (const header of Object.keys(req.headersDistinct)) {
    if (!header.startsWith(EXTRA_PREFIX)) continue;
    const key = decodeURIComponent(header.slice(EXTRA_PREFIX.length));
    for (const value of headerValues(req, header)) {
      requests.push({
        apiGroup: AUTHENTICATION_GROUP, resource: 'userextras', subresource: key, namespace: '', name: value,
        printed: printed('UserExtra', '', value, `${AUTHENTICATION_GROUP}/v1`, key),
      });
    }
  }
  const uid = headerValues(req, 'impersonate-uid')[0] ?? '';
  if (uid) {
    requests.push({ apiGroup: AUTHENTICATION_GROUP, resource: 'uids', subresource: '', namespace: '', name: uid,
      printed: printed('UID', '', uid, `${AUTHENTICATION_GROUP}/v1`) });
  }
  return { requests, user, groups };
}

/**
 * The user a request runs as: the authenticated caller, or whom its impersonation headers
 * name once the caller may impersonate them. Throws the Status to answer otherwise.
 */
export async function impersonatedUser(
  req: IncomingMessage, caller: UserInfo, authorizer: Authorizer,
): Promise<UserInfo> {
  const { requests, user, groups } = requestsOf(req);
  if (requests.length === 0) return caller;
  if (!user) {
    throw statusErrors.internal(`requested [${requests.map((r) => r.printed).join(' ')}] without impersonating a user`);
  }

  for (const request of requests) {
    const attributes: AuthorizationAttributes = {
      user: caller, verb: 'impersonate', isResourceRequest: true, path: req.url ?? '', apiGroup: request.apiGroup,
      apiVersion: '',
      resource: request.resource, subresource: request.subresource, namespace: request.namespace, name: request.name,
    };
    const decision = await authorizer.authorize(attributes);
    if (!decision.allowed) throw forbiddenError(attributes, decision.reason);
  }

  const sa = SERVICE_ACCOUNT.exec(user);
  const names = groups.length > 0 || !sa ? [...groups] : ['system:serviceaccounts', `system:serviceaccounts:${sa[1]!}`];
  if (user === ANONYMOUS) {
    if (!names.includes(UNAUTHENTICATED_GROUP)) names.push(UNAUTHENTICATED_GROUP);
  } else if (!names.includes(AUTHENTICATED_GROUP) && !names.includes(UNAUTHENTICATED_GROUP)) {
    names.push(AUTHENTICATED_GROUP);
  }
  const extra: Record<string, string[]> = {};
  for (const request of requests) {
    if (request.resource === 'userextras') (extra[request.subresource] ??= []).push(request.name);
  }
  const uid = requests.find((r) => r.resource === 'uids')?.name;
  return {
    username: user, groups: names,
    ...(uid ? { uid } : {}),
    ...(Object.keys(extra).length > 0 ? { extra } : {}),
  };
}
