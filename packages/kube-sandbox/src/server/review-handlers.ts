/**
 * The review resources (../resources/reviews.ts) as kube-apiserver answers them: a 201 echoing the
 * object with `status` filled, nothing stored. SelfSubjectAccessReview asks the request authorizer
 * (`kubectl auth can-i`), SelfSubjectRulesReview lists the rules (`--list`), SelfSubjectReview says who
 * the caller is (`whoami`); SubjectAccessReview asks about someone else and needs RBAC `create`.
 * Trust boundary: the Self reviews always ask about the authenticated caller.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fieldError } from '../api/field-errors.js';
import { isObject, stringOr, type JsonObject } from '../api/json.js';
import { statusErrors } from '../api/status.js';
import type { AuthorizationAttributes, Authorizer } from '../auth/authorizer.js';
import type { UserInfo } from '../ops/op-options.js';
import { selfsubjectaccessreviews, selfsubjectreviews, selfsubjectrulesreviews,
  subjectaccessreviews } from '../resources/reviews.js';
import { apiVersionOf, groupKind, groupResource, type ResourceDef } from '../resources/resource-def.js';
import { sendJson } from './http-io.js';
import type { RequestInfo } from './request-info.js';
import { objectBody } from './object-body.js';

function accessAttributes(def: ResourceDef, spec: JsonObject, user: UserInfo): AuthorizationAttributes {
  const resource = isObject(spec.resourceAttributes) ? spec.resourceAttributes : undefined;
  const nonResource = isObject(spec.nonResourceAttributes) ? spec.nonResourceAttributes : undefined;
  if (!resource === !nonResource) {
    throw statusErrors.invalid(groupKind(def), '', [
      fieldError.invalid('spec.resourceAttributes', resource ?? null,
        'exactly one of nonResourceAttributes or resourceAttributes must be specified'),
    ]);
  }
  if (resource) {
    return {
      user, verb: stringOr(resource.verb, ''), isResourceRequest: true, path: '',
      apiGroup: stringOr(resource.group, ''),
      apiVersion: stringOr(resource.version, ''), resource: stringOr(resource.resource, ''),
      subresource: stringOr(resource.subresource, ''),
      namespace: stringOr(resource.namespace, ''), name: stringOr(resource.name, ''),
    };
  }
  return {
    user, verb: stringOr(nonResource!.verb, ''), isResourceRequest: false, path: stringOr(nonResource!.path, ''),
    apiGroup: '', apiVersion: '', resource: '', subresource: '', namespace: '', name: '',
  };
}

/** The user a SubjectAccessReview asks about, as its spec names them (user or groups required, as kube-apiserver
 * checks). */
function subjectOf(def: ResourceDef, spec: JsonObject): UserInfo {
  const groups = Array.isArray(spec.groups) ? spec.groups.filter((g): g is string => typeof g === 'string') : [];
  const username = stringOr(spec.user, '');
  if (!username && groups.length === 0) {
    throw statusErrors.invalid(groupKind(def), '',
      [fieldError.invalid('spec.user', '', 'at least one of user or group must be specified')]);
  }
  // Echoed back in the review's answer as the client sent it; nothing here reads its values.
  const extra = isObject(spec.extra) ? spec.extra as UserInfo['extra'] : undefined;
  const uid = stringOr(spec.uid, '');
  return { username, groups, ...(uid ? { uid } : {}), ...(extra ? { extra } : {}) };
}

async function statusFor(
  def: ResourceDef, spec: JsonObject, user: UserInfo, authorizer: Authorizer,
): Promise<JsonObject> {
  if (def === subjectaccessreviews) {
    const decision = await authorizer.authorize(accessAttributes(def, spec, subjectOf(def, spec)));
    return decision.allowed
      ? { allowed: true }
      : { allowed: false, ...(decision.reason ? { evaluationError: decision.reason } : {}) };
  }
  if (def === selfsubjectaccessreviews) {
    const decision = await authorizer.authorize(accessAttributes(def, spec, user));
    // RBAC has no opinion rather than a denial; its missing-role notes are evaluation errors.
    return decision.allowed
      ? { allowed: true }
      : { allowed: false, ...(decision.reason ? { evaluationError: decision.reason } : {}) };
  }
  if (def === selfsubjectrulesreviews) {
    const namespace = stringOr(spec.namespace, '');
    if (!namespace) throw statusErrors.badRequest('no namespace on request');
    const rules = authorizer.rulesFor?.(user, namespace);
    if (!rules) {
      return { resourceRules: [], nonResourceRules: [], incomplete: true,
        evaluationError: 'the authorizer cannot list rules' };
    }
    return { ...rules };
  }
  return {
    userInfo: {
      username: user.username, ...(user.uid ? { uid: user.uid } : {}), groups: [...user.groups],
      ...(user.extra ? { extra: user.extra } : {}),
    },
  };
}

/** Serve a request to a review resource (already authenticated and authorized). */
export async function serveReview(
  authorizer: Authorizer, def: ResourceDef, info: RequestInfo, user: UserInfo, req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  if (info.namespace) throw statusErrors.pathNotFound();
  if (info.verb !== 'create' || info.name || info.subresource) throw statusErrors.methodNotAllowed(groupResource(def));
  const body = await objectBody(req);
  if (!isObject(body)) throw statusErrors.badRequest(`the body must be a ${def.kind} object`);
  if (body.kind !== undefined && body.kind !== def.kind) {
    throw statusErrors.badRequest(`the body is a ${String(body.kind)}, not a ${def.kind}`);
  }
  const spec = isObject(body.spec) ? body.spec : {};
  const status = await statusFor(def, spec, user, authorizer);
  const metadata = isObject(body.metadata) ? body.metadata : {};
  const specPart = def === selfsubjectreviews ? {} : { spec };
  sendJson(res, 201, {
    kind: def.kind, apiVersion: apiVersionOf(def), metadata: { ...metadata, creationTimestamp: null }, ...specPart,
    status,
  });
}
