import { fromKube } from './kube-errors.js';
function decision(status) {
    const allowed = status?.allowed === true && status.denied !== true;
    const reason = status?.reason || status?.evaluationError || undefined;
    return reason ? { allowed, reason } : { allowed };
}
const resourceAttributes = (a) => ({
    verb: a.verb, group: a.group, version: a.version, resource: a.resource, namespace: a.namespace,
    ...(a.name ? { name: a.name } : {}),
});
/** Asked with the caller's own client: may I? */
export async function selfReview(apis, attributes) {
    try {
        const review = await apis.authorization.createSelfSubjectAccessReview({
            body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview',
                spec: { resourceAttributes: resourceAttributes(attributes) } },
        });
        return decision(review.status);
    }
    catch (err) {
        throw fromKube(err, 'create selfsubjectaccessreviews');
    }
}
/** Asked with the ServiceAccount's client: may this user (with these groups)? */
export async function subjectReview(apis, user, groups, attributes) {
    try {
        const review = await apis.authorization.createSubjectAccessReview({
            body: {
                apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview',
                spec: { user, groups: [...groups], resourceAttributes: resourceAttributes(attributes) },
            },
        });
        return decision(review.status);
    }
    catch (err) {
        throw fromKube(err, 'create subjectaccessreviews');
    }
}
//# sourceMappingURL=write-review.js.map