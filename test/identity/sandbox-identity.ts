/**
 * The sandbox API server as a cluster whose kube-apiserver trusts our test issuer: the
 * OIDC authenticator (`--oidc-issuer-url`, `--oidc-client-id`, email as the user name,
 * `groups` as the groups) and RBAC on, with the Roles of the identity suites:
 *
 * - group `platform-admins` (alice) may write HelmReleases and OCIRepositories and read
 *   Agents, ModelConfigs, Deployments, pods and events in `kagent`;
 * - user `bob@lab.local` may only read the same things.
 *
 * The OIDC authenticator is added here rather than through `startSandbox({ oidc })` so
 * that a witness authenticator can sit before it and record every bearer the API
 * server is shown, so a suite can say "no request reached the API server" even for
 * tokens the API server would have refused.
 */
import { KubeConfig } from '@kubernetes/client-node';
import type { FakeIssuer } from '../support/identity/fake-issuer.js';
import { OidcAuthenticator, type Sandbox } from '@agent-manager/kube-sandbox';

/** The audience the sandbox's apiserver trusts (Giant Swarm's Dex cross-client). */
export const APISERVER_AUDIENCE = 'dex-k8s-authenticator';

/** Bearers the API server was shown, in order (never logged). */
export interface Witness {
  readonly tokens: string[];
}

const RBAC = 'rbac.authorization.k8s.io/v1';
const READ = ['get', 'list', 'watch'];
const WRITE = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];

function rules(fluxVerbs: string[]) {
  return [
    { apiGroups: ['helm.toolkit.fluxcd.io'], resources: ['helmreleases'], verbs: fluxVerbs },
    { apiGroups: ['source.toolkit.fluxcd.io'], resources: ['ocirepositories'], verbs: fluxVerbs },
    { apiGroups: ['kagent.dev'], resources: ['agents', 'modelconfigs'], verbs: READ },
    { apiGroups: ['apps'], resources: ['deployments'], verbs: READ },
    { apiGroups: [''], resources: ['pods', 'events'], verbs: READ },
  ];
}

function role(name: string, fluxVerbs: string[]) {
  return { apiVersion: RBAC, kind: 'Role', metadata: { name, namespace: 'kagent' }, rules: rules(fluxVerbs) };
}

function binding(name: string, roleName: string, subject: { kind: 'User' | 'Group'; name: string }) {
  return {
    apiVersion: RBAC, kind: 'RoleBinding', metadata: { name, namespace: 'kagent' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: roleName },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', ...subject }],
  };
}

/** Trust `issuer` for `APISERVER_AUDIENCE`, turn RBAC on and create the suites' Roles. */
export function trustIssuerWithRbac(sandbox: Sandbox, issuer: FakeIssuer): Witness {
  const witness: Witness = { tokens: [] };
  sandbox.authenticators.add({
    authenticate: (token) => {
      witness.tokens.push(token);
      return undefined;
    },
  });
  sandbox.authenticators.add(new OidcAuthenticator({
    issuerUrl: issuer.url, clientId: APISERVER_AUDIENCE, usernameClaim: 'email', groupsClaim: 'groups',
    signingAlgs: ['RS256', 'ES256'],
  }));
  const opts = { fieldManager: 'identity-test' };
  sandbox.store.create('roles', role('agent-writer', WRITE), opts);
  sandbox.store.create('roles', role('agent-reader', READ), opts);
  sandbox.store.create('rolebindings', binding('platform-admins-write', 'agent-writer', { kind: 'Group', name: 'platform-admins' }), opts);
  sandbox.store.create('rolebindings', binding('bob-read', 'agent-reader', { kind: 'User', name: 'bob@lab.local' }), opts);
  sandbox.enableRbac();
  return witness;
}

/** The sandbox's address and CA, and no credentials at all: what a CallerProvider starts from. */
export function anonymousBase(sandbox: Sandbox): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromClusterAndUser(
    { name: 'sandbox', server: sandbox.url, caData: Buffer.from(sandbox.caPem).toString('base64'), skipTLSVerify: false },
    { name: 'nobody' },
  );
  return kc;
}
