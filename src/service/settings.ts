/**
 * What the agent service is built from: its ports (dependencies) and its settings
 * (the slice of the configuration it needs, already parsed and validated).
 */
import type { Logger } from 'pino';
import type { ComposeConfig } from '../core/compose.js';
import type { PresetPolicy } from '../core/toolset-preflight.js';
import type { ManagedNamespaces } from './namespaces.js';
import type { ChartSchemaSource, KubeProvider, SkillCatalog } from './ports.js';
import type { ApiVersions } from './resources.js';

export interface ServiceDeps {
  kube: KubeProvider;
  chart: ChartSchemaSource;
  /** Skill discovery; absent or with no repositories means the capability is off (501). */
  skills?: SkillCatalog;
  log: Logger;
}

export interface ServiceSettings {
  version: string;
  namespaces: ManagedNamespaces;
  compose: ComposeConfig;
  apiVersions: ApiVersions;
  /** Which toolset presets the gateway has (`--toolset-presets`); default: not known. */
  toolsetPresets?: PresetPolicy;
  /** How often a read-merge-write update is attempted before a conflict is surfaced. */
  updateAttempts?: number;
  /** How many revisions of each agent are kept (`--revision-history-limit`; 0 keeps none); default 10. */
  revisionHistoryLimit?: number;
}
