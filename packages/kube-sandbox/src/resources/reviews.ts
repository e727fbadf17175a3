/**
 * The access-review resources kube-apiserver serves without storing anything:
 * `authorization.k8s.io/v1` SelfSubjectAccessReview (`kubectl auth can-i`) and
 * SelfSubjectRulesReview (`kubectl auth can-i --list`), and `authentication.k8s.io/v1`
 * SelfSubjectReview (`kubectl auth whoami`), and SubjectAccessReview (may this other
 * user?, `kubectl auth can-i --as`'s question asked by a reviewer). Create-only and cluster-scoped; the server
 * answers them in ../server/reviews.ts and never writes them to the store.
 */
import { nameColumn } from './columns.js';
import { objectSchema } from './builtin-schemas.js';
import { anyValue } from './schema.js';
import type { ResourceDef } from './resource-def.js';

const review = (group: string, resource: string, kind: string): ResourceDef => ({
  group, version: 'v1', resource, kind, singular: '', namespaced: false, shortNames: [], categories: [],
  verbs: ['create'], statusSubresource: false, custom: false, nameRule: 'subdomain',
  schema: objectSchema({ spec: anyValue(), status: anyValue() }), columns: [nameColumn()],
});

export const selfsubjectaccessreviews = review('authorization.k8s.io', 'selfsubjectaccessreviews',
  'SelfSubjectAccessReview');
export const selfsubjectrulesreviews = review('authorization.k8s.io', 'selfsubjectrulesreviews',
  'SelfSubjectRulesReview');
export const selfsubjectreviews = review('authentication.k8s.io', 'selfsubjectreviews', 'SelfSubjectReview');
export const subjectaccessreviews = review('authorization.k8s.io', 'subjectaccessreviews', 'SubjectAccessReview');

/** The review resources, in discovery order. */
export const REVIEW_RESOURCES: readonly ResourceDef[] = [
  selfsubjectreviews, selfsubjectaccessreviews, selfsubjectrulesreviews, subjectaccessreviews,
];

/** Whether a resource is one of the reviews (answered, never stored). */
export const isReview = (def: ResourceDef): boolean => REVIEW_RESOURCES.includes(def);
