/**
 * Authorization of sandbox API requests: who asks and what for (kube-apiserver's authorizer attributes)
 * gives allow or deny, and a denial is the real Forbidden Status word for word (`helmreleases.helm.…
 * is forbidden: User "alice@lab.local" cannot create resource "helmreleases" in API group …`).
 * `alwaysAllow` is `--authorization always-allow`; RBAC (rbac-authorizer.ts) is the other.
 */
import { groupResourceString, statusErrors, type StatusError } from '../api/status.js';
import type { UserInfo } from '../ops/op-options.js';

/** What is being asked (authorizer.Attributes). */
export interface AuthorizationAttributes {
  readonly user: UserInfo;
  readonly verb: string;
  readonly isResourceRequest: boolean;
  readonly path: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
}

/** An authorizer's answer; `reason` is appended to the Forbidden message when set. */
export interface Decision {
  readonly allowed: boolean;
  readonly reason?: string;
}

/** What a user may do in a namespace (SubjectRulesReviewStatus), for SelfSubjectRulesReview. */
export interface SubjectRules {
  readonly resourceRules: Array<{
    verbs: string[];
    apiGroups: string[];
    resources: string[];
    resourceNames?: string[];
  }>;
  readonly nonResourceRules: Array<{ verbs: string[]; nonResourceURLs: string[] }>;
  readonly incomplete: boolean;
  readonly evaluationError?: string;
}

export interface Authorizer {
  authorize(attributes: AuthorizationAttributes): Decision | Promise<Decision>;
  /** The rules that apply to `user` in `namespace`; authorizers without it report them incomplete. */
  rulesFor?(user: UserInfo, namespace: string): SubjectRules;
}

/** Every verb on everything: what AlwaysAllow and the privileged group report. */
export const ALL_RULES: SubjectRules = {
  resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
  incomplete: false,
};

/** `--authorization-mode=AlwaysAllow`. */
export const alwaysAllow: Authorizer = { authorize: () => ({ allowed: true }), rulesFor: () => ALL_RULES };

/** The Forbidden Status for a denied request (apiserver's ForbiddenStatusError). */
export function forbiddenError(a: AuthorizationAttributes, reason = ''): StatusError {
  const user = a.user.username;
  let message: string;
  if (!a.isResourceRequest) {
    message = `User ${JSON.stringify(user)} cannot ${a.verb} path ${JSON.stringify(a.path)}`;
  } else {
    const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
    const where = a.namespace ? `in the namespace ${JSON.stringify(a.namespace)}` : 'at the cluster scope';
    message = `User ${JSON.stringify(user)} cannot ${a.verb} resource ${JSON.stringify(resource)} in API group ` +
      `${JSON.stringify(a.apiGroup)} ${where}`;
  }
  if (reason) message = `${message}: ${reason}`;
  if (!a.isResourceRequest) return statusErrors.forbidden('', message);
  const gr = { group: a.apiGroup, resource: a.resource };
  const subject = a.name ? `${groupResourceString(gr)} ${JSON.stringify(a.name)}` : groupResourceString(gr);
  return statusErrors.forbidden(subject, message, gr, a.name);
}
