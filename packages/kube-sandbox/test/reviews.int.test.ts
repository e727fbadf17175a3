/**
 * The access reviews over plain HTTPS with JSON bodies (what client-node and scripts
 * send): SelfSubjectAccessReview answers for the calling user with 201 and a status,
 * SelfSubjectRulesReview needs a namespace, SelfSubjectReview names the caller, nothing
 * is stored, and only create is served; a SubjectAccessReview asks about the user the spec
 * names, and only a caller RBAC lets create one may ask.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raw, startHarness, type Harness } from './harness.js';

let h: Harness;
const SSAR = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';
const json = { 'content-type': 'application/json' };

describe('sandbox access reviews', () => {
  beforeAll(async () => {
    h = await startHarness({ authorization: 'rbac' });
    h.sandbox.tokens.set('dana-token', { username: 'dana@lab.local', groups: ['system:authenticated'] });
  });
  afterAll(async () => {
    await h?.sandbox.close();
  });

  const review = (spec: unknown) => JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec });
  const createHr = { resourceAttributes: { namespace: 'kagent', verb: 'create', group: 'helm.toolkit.fluxcd.io', resource: 'helmreleases' } };

  it('answers a SelfSubjectAccessReview 201 with allowed for the caller, whoever the spec might name', async () => {
    const res = await raw(h.sandbox, 'POST', SSAR, { body: review(createHr), headers: json });
    expect(res.code).toBe(201);
    expect(res.json).toMatchObject({ kind: 'SelfSubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', spec: createHr, status: { allowed: true } });
  });

  it('answers allowed false for a user without a grant, and stores nothing', async () => {
    const before = h.sandbox.store.revision;
    const res = await raw(h.sandbox, 'POST', SSAR, { body: review(createHr), headers: json, token: 'dana-token' });
    expect(res.code).toBe(201);
    expect(res.json.status).toEqual({ allowed: false });
    expect(h.sandbox.store.revision).toBe(before);
  });

  it('answers non-resource reviews from the discovery roles every signed-in user has', async () => {
    const res = await raw(h.sandbox, 'POST', SSAR, { body: review({ nonResourceAttributes: { path: '/version', verb: 'get' } }), headers: json, token: 'dana-token' });
    expect(res.json.status).toEqual({ allowed: true });
  });

  it.each([['neither attribute set', {}], ['both set', { ...createHr, nonResourceAttributes: { path: '/version', verb: 'get' } }]])(
    'refuses a review with %s as 422 Invalid', async (_name, spec) => {
      const res = await raw(h.sandbox, 'POST', SSAR, { body: review(spec), headers: json });
      expect(res.code).toBe(422);
      expect(res.json.message).toContain('exactly one of nonResourceAttributes or resourceAttributes must be specified');
    },
  );

  it('needs a namespace for a SelfSubjectRulesReview', async () => {
    const body = JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: {} });
    const res = await raw(h.sandbox, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', { body, headers: json });
    expect(res.code).toBe(400);
    expect(res.json.message).toBe('no namespace on request');
  });

  it('names the caller in a SelfSubjectReview', async () => {
    const body = JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
    const res = await raw(h.sandbox, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { body, headers: json, token: 'dana-token' });
    expect(res.code).toBe(201);
    expect(res.json.status).toEqual({ userInfo: { username: 'dana@lab.local', groups: ['system:authenticated'] } });
  });

  const SAR = '/apis/authorization.k8s.io/v1/subjectaccessreviews';
  const about = (spec: Record<string, unknown>) => JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { ...createHr, ...spec } });

  it('answers a SubjectAccessReview about the user and groups the spec names, not the caller', async () => {
    const admin = await raw(h.sandbox, 'POST', SAR, { body: about({ user: 'root', groups: ['system:masters'] }), headers: json });
    expect(admin.code).toBe(201);
    expect(admin.json).toMatchObject({ kind: 'SubjectAccessReview', status: { allowed: true } });
    const dana = await raw(h.sandbox, 'POST', SAR, { body: about({ user: 'dana@lab.local', groups: ['system:authenticated'] }), headers: json });
    expect(dana.json.status).toEqual({ allowed: false });
  });

  it('needs create on subjectaccessreviews to ask about someone else, and a user or group to ask about', async () => {
    const asked = await raw(h.sandbox, 'POST', SAR, { body: about({ user: 'root', groups: ['system:masters'] }), headers: json, token: 'dana-token' });
    expect(asked.code).toBe(403);
    const nobody = await raw(h.sandbox, 'POST', SAR, { body: about({}), headers: json });
    expect(nobody.code).toBe(422);
    expect(nobody.json.message).toContain('at least one of user or group must be specified');
  });

  it('serves only create: a list is 405 and a namespaced path 404', async () => {
    expect((await raw(h.sandbox, 'GET', SSAR)).code).toBe(405);
    expect((await raw(h.sandbox, 'POST', '/apis/authorization.k8s.io/v1/namespaces/kagent/selfsubjectaccessreviews', { body: review(createHr), headers: json })).code).toBe(404);
  });
});
