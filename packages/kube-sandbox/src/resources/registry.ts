/**
 * The resource table of the sandbox and the lookups over it: by URL segments
 * (group, version, plural), by apiVersion and kind (object bodies), and by any name a
 * person or test might use (`helmreleases.helm.toolkit.fluxcd.io`, `hr`, `HelmRelease`).
 * Discovery, routing and the in-process store all read this one table.
 */
import { APPS_RESOURCES, RBAC_RESOURCES } from './builtin-apps-rbac.js';
import { CORE_RESOURCES } from './builtin-core.js';
import { CUSTOM_RESOURCES } from './custom.js';
import { customresourcedefinitions } from './crds.js';
import { REVIEW_RESOURCES } from './reviews.js';
import { apiVersionOf, resourceKey, type ResourceDef } from './resource-def.js';

/** Every resource the sandbox serves by default. */
export const DEFAULT_RESOURCES: readonly ResourceDef[] = [
  ...CORE_RESOURCES, ...APPS_RESOURCES, customresourcedefinitions, ...REVIEW_RESOURCES, ...RBAC_RESOURCES,
  ...CUSTOM_RESOURCES,
];

/** A served API group and its versions (the core group is not listed). */
export interface ServedGroup {
  readonly name: string;
  readonly versions: readonly string[];
}

export class ResourceRegistry {
  private readonly byPath = new Map<string, ResourceDef>();
  private readonly byKind = new Map<string, ResourceDef>();
  private readonly byName = new Map<string, ResourceDef>();

  constructor(private readonly defs: readonly ResourceDef[] = DEFAULT_RESOURCES) {
    for (const def of defs) {
      this.byPath.set(`${def.group}/${def.version}/${def.resource}`, def);
      this.byKind.set(`${apiVersionOf(def)}/${def.kind}`, def);
      for (const name of [
        resourceKey(def), def.resource, def.singular, def.kind, def.kind.toLowerCase(), ...def.shortNames,
      ]) {
        if (!this.byName.has(name)) this.byName.set(name, def);
      }
    }
  }

  /** All served resources, in table order. */
  all(): readonly ResourceDef[] {
    return this.defs;
  }

  /** The resource at `/apis/<group>/<version>/<resource>` (group '' for /api/v1). */
  find(group: string, version: string, resource: string): ResourceDef | undefined {
    return this.byPath.get(`${group}/${version}/${resource}`);
  }

  /** The resource of an object body's apiVersion and kind. */
  forKind(apiVersion: string, kind: string): ResourceDef | undefined {
    return this.byKind.get(`${apiVersion}/${kind}`);
  }

  /** The resource by plural, `plural.group`, singular, kind or short name. */
  resolve(name: string): ResourceDef | undefined {
    return this.byName.get(name);
  }

  /** Like resolve, but throws when the name is unknown (in-process callers). */
  require(name: string | ResourceDef): ResourceDef {
    if (typeof name !== 'string') return name;
    const def = this.resolve(name);
    if (!def) {
      throw new Error(`the sandbox serves no resource named "${name}"; known: ` +
        `${this.defs.map(resourceKey).join(', ')}`);
    }
    return def;
  }

  /** The named API groups, each with its versions, in table order. */
  groups(): ServedGroup[] {
    const groups = new Map<string, string[]>();
    for (const def of this.defs) {
      if (!def.group) continue;
      const versions = groups.get(def.group) ?? [];
      if (!versions.includes(def.version)) versions.push(def.version);
      groups.set(def.group, versions);
    }
    return [...groups].map(([name, versions]) => ({ name, versions }));
  }

  /** The resources served at one group version. */
  inGroupVersion(group: string, version: string): ResourceDef[] {
    return this.defs.filter((def) => def.group === group && def.version === version);
  }
}
