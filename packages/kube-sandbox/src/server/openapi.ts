/**
 * A minimal OpenAPI v3 for kubectl: apply, create and replace validate on the server
 * (`fieldValidation=Strict`) only when a kind's PATCH operation lists that parameter, else they download
 * the protobuf v2 document the sandbox does not serve. So each group version lists a PATCH per resource
 * with the parameter, and each kind's schema (read by `kubectl explain`). Without request-body content
 * types kubectl still computes strategic merge patches from its compiled-in types.
 */
import { createHash } from 'node:crypto';
import type { JsonObject } from '../api/json.js';
import type { ResourceRegistry } from '../resources/registry.js';
import { apiVersionOf, type ResourceDef } from '../resources/resource-def.js';

/** `api/v1` or `apis/<group>/<version>`, the keys of the v3 root document. */
const gvPath = (group: string, version: string): string => (group ? `apis/${group}/${version}` : `api/${version}`);

function objectPath(def: ResourceDef): string {
  const ns = def.namespaced ? 'namespaces/{namespace}/' : '';
  return `/${gvPath(def.group, def.version)}/${ns}${def.resource}/{name}`;
}

/** The OpenAPI document of one group version, or undefined when it is not served. */
export function openApiGroupVersion(
  registry: ResourceRegistry, group: string, version: string,
): JsonObject | undefined {
  const defs = registry.inGroupVersion(group, version);
  if (defs.length === 0) return undefined;
  const paths: JsonObject = {};
  for (const def of defs) {
    paths[objectPath(def)] = {
      patch: {
        operationId: `patch${def.kind}`,
        parameters: [
          { name: 'fieldValidation', in: 'query', schema: { type: 'string', uniqueItems: true } },
          { name: 'fieldManager', in: 'query', schema: { type: 'string', uniqueItems: true } },
          { name: 'dryRun', in: 'query', schema: { type: 'string', uniqueItems: true } },
          { name: 'force', in: 'query', schema: { type: 'boolean', uniqueItems: true } },
        ],
        responses: { 200: { description: 'OK' } },
        'x-kubernetes-action': 'patch',
        'x-kubernetes-group-version-kind': { group: def.group, version: def.version, kind: def.kind },
      },
    };
  }
  const schemas: JsonObject = {};
  for (const def of defs) schemas[schemaName(def)] = kindSchema(def);
  return { openapi: '3.0.0', info: { title: 'Kubernetes (sandbox)', version: apiVersionOf(defs[0]!) }, paths,
    components: { schemas } };
}

/** The component name the real server uses: `io.k8s.api.core.v1.Pod`, `io.fluxcd.toolkit.helm.v2.HelmRelease`. */
export function schemaName(def: ResourceDef): string {
  const builtin: Record<string, string> =
    { '': 'core', apps: 'apps', 'rbac.authorization.k8s.io': 'rbac', 'authorization.k8s.io': 'authorization',
      'authentication.k8s.io': 'authentication' };
  const prefix = def.group in builtin ? `io.k8s.api.${builtin[def.group]}` : def.group.split('.').reverse().join('.');
  return `${prefix}.${def.version}.${def.kind}`;
}

function kindSchema(def: ResourceDef): JsonObject {
  return {
    ...def.schema,
    description: `${def.kind} as the sandbox API server models it: field types, enums and required fields, without ` +
      `field documentation.`,
    'x-kubernetes-group-version-kind': [{ group: def.group, version: def.version, kind: def.kind }],
  };
}

/** The v3 root: each group version and the URL of its document (hashed, as the real server does). */
export function openApiRoot(registry: ResourceRegistry): JsonObject {
  const paths: JsonObject = {};
  const pairs = new Set(registry.all().map((d) => `${d.group}\u0000${d.version}`));
  for (const pair of pairs) {
    const [group = '', version = ''] = pair.split('\u0000');
    const doc = openApiGroupVersion(registry, group, version)!;
    const hash = createHash('sha512').update(JSON.stringify(doc)).digest('hex').slice(0, 128).toUpperCase();
    paths[gvPath(group, version)] = { serverRelativeURL: `/openapi/v3/${gvPath(group, version)}?hash=${hash}` };
  }
  return { paths };
}
