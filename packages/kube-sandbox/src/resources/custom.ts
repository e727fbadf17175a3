/**
 * The custom resources the sandbox serves as if their CRDs were installed: Flux
 * HelmRelease, OCIRepository, Kustomization and GitRepository, kagent Agent and ModelConfig (and
 * the `api.kagent.dev` kinds of kagent-v2.ts). Names, short names,
 * categories and printer columns are those of the real CRDs, so `kubectl get hr` and
 * `kubectl get mc` print what they print against a real cluster.
 */
import { fieldError, type FieldError } from '../api/field-errors.js';
import { isObject, type JsonObject } from '../api/json.js';
import { jsonPathColumn, nameColumn } from './columns.js';
import { agentSchema, modelConfigSchema } from './schemas/kagent.js';
import { helmReleaseSchema, ociRepositorySchema } from './schemas/flux.js';
import { gitRepositorySchema, kustomizationSchema } from './schemas/flux-gitops.js';
import { crd, ready } from './crd-def.js';
import { KAGENT_V2_RESOURCES } from './kagent-v2.js';
import type { ResourceDef } from './resource-def.js';

/**
 * The HelmRelease CRD's CEL rule on `spec`, `(has(self.chart) && !has(self.chartRef)) || (!has(self.chart) &&
 * has(self.chartRef))`, checked by hand (the sandbox evaluates no CEL): a release must name exactly one chart source.
 */
function chartSourceRule(obj: JsonObject): FieldError[] {
  const spec = isObject(obj.spec) ? obj.spec : {};
  return ('chart' in spec) !== ('chartRef' in spec) ? []
    : [fieldError.invalid('spec', 'object', 'either chart or chartRef must be set')];
}

export const helmreleases = crd({
  group: 'helm.toolkit.fluxcd.io', version: 'v2', resource: 'helmreleases', kind: 'HelmRelease',
  singular: 'helmrelease', validate: chartSourceRule,
  shortNames: ['hr'], categories: ['all', 'fluxcd', 'fluxcd-appliers'], schema: helmReleaseSchema,
  columns: [
    nameColumn(),
    jsonPathColumn('Age', 'date', '.metadata.creationTimestamp'),
    jsonPathColumn('Ready', 'string', `${ready('"')}.status`),
    jsonPathColumn('Status', 'string', `${ready('"')}.message`),
  ],
});

export const ocirepositories = crd({
  group: 'source.toolkit.fluxcd.io', version: 'v1', resource: 'ocirepositories', kind: 'OCIRepository',
  singular: 'ocirepository',
  shortNames: ['ocirepo'], categories: ['all', 'fluxcd', 'fluxcd-sources'], schema: ociRepositorySchema,
  columns: [
    nameColumn(),
    jsonPathColumn('URL', 'string', '.spec.url'),
    jsonPathColumn('Ready', 'string', `${ready('"')}.status`),
    jsonPathColumn('Status', 'string', `${ready('"')}.message`),
    jsonPathColumn('Age', 'date', '.metadata.creationTimestamp'),
  ],
});

export const kustomizations = crd({
  group: 'kustomize.toolkit.fluxcd.io', version: 'v1', resource: 'kustomizations', kind: 'Kustomization',
  singular: 'kustomization',
  shortNames: ['ks'], categories: ['all', 'fluxcd', 'fluxcd-appliers'], schema: kustomizationSchema,
  columns: [
    nameColumn(),
    jsonPathColumn('Age', 'date', '.metadata.creationTimestamp'),
    jsonPathColumn('Ready', 'string', `${ready('"')}.status`),
    jsonPathColumn('Status', 'string', `${ready('"')}.message`),
  ],
});

export const gitrepositories = crd({
  group: 'source.toolkit.fluxcd.io', version: 'v1', resource: 'gitrepositories', kind: 'GitRepository',
  singular: 'gitrepository',
  shortNames: ['gitrepo'], categories: ['all', 'fluxcd', 'fluxcd-sources'], schema: gitRepositorySchema,
  columns: [
    nameColumn(),
    jsonPathColumn('URL', 'string', '.spec.url'),
    jsonPathColumn('Age', 'date', '.metadata.creationTimestamp'),
    jsonPathColumn('Ready', 'string', `${ready('"')}.status`),
    jsonPathColumn('Status', 'string', `${ready('"')}.message`),
  ],
});

export const agents = crd({
  group: 'kagent.dev', version: 'v1alpha2', resource: 'agents', kind: 'Agent', singular: 'agent',
  shortNames: [], categories: ['kagent'], schema: agentSchema,
  columns: [
    nameColumn(),
    jsonPathColumn('Type', 'string', '.spec.type', 'The type of the agent.'),
    jsonPathColumn('Runtime', 'string', '.spec.declarative.runtime',
      'The runtime implementation for declarative agents.'),
    jsonPathColumn('Ready', 'string', ".status.conditions[?(@.type=='Ready')].status",
      'Whether or not the agent is ready to serve requests.'),
    jsonPathColumn('Accepted', 'string', ".status.conditions[?(@.type=='Accepted')].status",
      'Whether or not the agent has been accepted by the system.'),
  ],
});

export const modelconfigs = crd({
  group: 'kagent.dev', version: 'v1alpha2', resource: 'modelconfigs', kind: 'ModelConfig', singular: 'modelconfig',
  shortNames: ['mc'], categories: ['kagent'], schema: modelConfigSchema,
  columns: [nameColumn(), jsonPathColumn('Provider', 'string', '.spec.provider'),
    jsonPathColumn('Model', 'string', '.spec.model')],
});

/**
 * The custom resources, in discovery order: `kagent.dev` before `api.kagent.dev`, so `agents`,
 * `agent` and `mc` name kagent.dev's kinds, as kubectl resolves an ambiguous name by discovery order.
 */
export const CUSTOM_RESOURCES: readonly ResourceDef[] = [
  helmreleases, ocirepositories, kustomizations, gitrepositories, agents, modelconfigs, ...KAGENT_V2_RESOURCES,
];
