/**
 * Discovery documents in their legacy (non-aggregated) form: /version, /api, /api/v1,
 * /apis, /apis/<group> and /apis/<group>/<version>, generated from the resource table.
 * `kubectl api-resources`, kubectl's RESTMapper and client-node's KubernetesObjectApi
 * read these to map kinds to resources, scopes and verbs.
 */
import { createHash } from 'node:crypto';
import type { JsonObject } from '../api/json.js';
import type { ResourceRegistry } from '../resources/registry.js';
import { apiVersionOf, type ResourceDef } from '../resources/resource-def.js';

/** The Kubernetes version the sandbox reports (kubectl v1.32 is the client we test with). */
export const SANDBOX_VERSION = { major: '1', minor: '32', gitVersion: 'v1.32.0+sandbox' };

export function versionInfo(): JsonObject {
  return {
    ...SANDBOX_VERSION,
    gitCommit: '0000000000000000000000000000000000000000', gitTreeState: 'clean', buildDate: '2025-01-01T00:00:00Z',
    goVersion: 'go1.23.4', compiler: 'gc',
    platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
  };
}

function storageVersionHash(def: ResourceDef): string {
  return createHash('sha256').update(`${def.group}/${def.version}/${def.kind}`).digest().subarray(0, 8)
    .toString('base64');
}

function resourceEntries(def: ResourceDef): JsonObject[] {
  const main: JsonObject = {
    name: def.resource, singularName: def.singular, namespaced: def.namespaced, kind: def.kind, verbs: [...def.verbs],
  };
  if (def.shortNames.length > 0) main.shortNames = [...def.shortNames];
  if (def.categories.length > 0) main.categories = [...def.categories];
  main.storageVersionHash = storageVersionHash(def);
  const entries = [main];
  if (def.statusSubresource) {
    entries.push({ name: `${def.resource}/status`, singularName: '', namespaced: def.namespaced, kind: def.kind,
      verbs: ['get', 'patch', 'update'] });
  }
  if (def.scaleSubresource) {
    entries.push({
      name: `${def.resource}/scale`, singularName: '', namespaced: def.namespaced, group: 'autoscaling', version: 'v1',
      kind: 'Scale',
      verbs: ['get', 'patch', 'update'],
    });
  }
  return entries;
}

/** /api */
export function apiVersions(serverAddress: string): JsonObject {
  return { kind: 'APIVersions', versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

function groupEntry(name: string, versions: readonly string[]): JsonObject {
  const list = versions.map((version) => ({ groupVersion: `${name}/${version}`, version }));
  return { name, versions: list, preferredVersion: list[0] };
}

/** /apis */
export function apiGroupList(registry: ResourceRegistry): JsonObject {
  return { kind: 'APIGroupList', apiVersion: 'v1',
    groups: registry.groups().map((g) => groupEntry(g.name, g.versions)) };
}

/** /apis/<group>, or undefined when the group is not served. */
export function apiGroup(registry: ResourceRegistry, group: string): JsonObject | undefined {
  const served = registry.groups().find((g) => g.name === group);
  return served ? { kind: 'APIGroup', apiVersion: 'v1', ...groupEntry(served.name, served.versions) } : undefined;
}

/** /api/v1 or /apis/<group>/<version>, or undefined when not served. */
export function apiResourceList(registry: ResourceRegistry, group: string, version: string): JsonObject | undefined {
  const defs = registry.inGroupVersion(group, version);
  if (defs.length === 0) return undefined;
  return {
    kind: 'APIResourceList', apiVersion: 'v1', groupVersion: apiVersionOf(defs[0]!),
    resources: [...defs].sort((a, b) => (a.resource < b.resource ? -1 : 1)).flatMap(resourceEntries),
  };
}
