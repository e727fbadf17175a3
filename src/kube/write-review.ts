/**
 * Whether a person may make a change to the cluster, asked of the API server the way
 * `kubectl auth can-i` does: a SelfSubjectAccessReview with the caller's own token, or,
 * when the ServiceAccount makes the calls, a SubjectAccessReview about the caller (their
 * user name and groups as the identity provider gave them; the ServiceAccount needs
 * `create` on subjectaccessreviews for it). The API server's reason travels with a
 * denial, so a refusal can say what RBAC said.
 */
import { FIELD_MANAGER, type KubeApis } from './api-clients.js';
import { fromKube } from './kube-errors.js';
import type { AccessAttributes, AccessDecision } from '../service/ports.js';

type Status = { allowed?: boolean; denied?: boolean; reason?: string; evaluationError?: string } | undefined;

function decision(status: Status): AccessDecision {
  const allowed = status?.allowed === true && status.denied !== true;
  const reason = status?.reason || status?.evaluationError || undefined;
  return reason ? { allowed, reason } : { allowed };
}

const resourceAttributes = (a: AccessAttributes) => ({
  verb: a.verb, group: a.group, version: a.version, resource: a.resource, namespace: a.namespace,
  ...(a.name ? { name: a.name } : {}),
});

/** Asked with the caller's own client: may I? */
export async function selfReview(apis: KubeApis, attributes: AccessAttributes): Promise<AccessDecision> {
  try {
    const review = await apis.authorization.createSelfSubjectAccessReview({
      fieldManager: FIELD_MANAGER,
      body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview',
        spec: { resourceAttributes: resourceAttributes(attributes) } },
    });
    return decision(review.status);
  } catch (err) {
    throw fromKube(err, 'create selfsubjectaccessreviews');
  }
}

/** Asked with the ServiceAccount's client: may this user (with these groups)? */
export async function subjectReview(
  apis: KubeApis, user: string, groups: readonly string[], attributes: AccessAttributes,
): Promise<AccessDecision> {
  try {
    const review = await apis.authorization.createSubjectAccessReview({
      fieldManager: FIELD_MANAGER,
      body: {
        apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview',
        spec: { user, groups: [...groups], resourceAttributes: resourceAttributes(attributes) },
      },
    });
    return decision(review.status);
  } catch (err) {
    throw fromKube(err, 'create subjectaccessreviews');
  }
}
