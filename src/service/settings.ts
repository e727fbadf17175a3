/**
 * What the agent service is built from: its ports (dependencies) and its settings
 * (the slice of the configuration it needs, already parsed and validated).
 */
import type { Logger } from 'pino';
import type { ComposeConfig } from '../core/writes/compose.js';
import type { Line2Settings } from '../core/chart-lines/values-2x.js';
import type { HarnessEgress } from '../core/guards/harness-egress.js';
import type { ToolsetResolver } from './guards/toolset-port.js';
import type { PresetPolicy } from '../core/toolset/toolset-preflight.js';
import type { ManagedNamespaces } from './namespaces.js';
import type {
  ChartSchemaSource, GitOpsHost, KubeProvider, ReadCacheReport, SkillCatalog, SkillResolver, WorkloadClusters,
} from './ports.js';
import type { ApiVersions } from './resources.js';
import type { SessionsDeps } from './sessions/session-port.js';

export interface ServiceDeps {
  kube: KubeProvider;
  chart: ChartSchemaSource;
  /** Skill discovery; absent or with no repositories means the capability is off (501). */
  skills?: SkillCatalog;
  /**
   * Resolves skills to commits and digests, so every write pins them. Absent (tests and
   * embeddings without network), skills are written as given.
   */
  skillResolver?: SkillResolver;
  /** The GitOps repository host of commit mode; absent means commit mode is off (501). */
  gitops?: GitOpsHost;
  /** The read cache's state for get_info; absent means the cache is off. */
  readCache?: ReadCacheReport;
  /** Conversations with agents over A2A; absent means the session tools are off (501). */
  sessions?: SessionsDeps;
  /** Aborts when the server shuts down: every wait (and the watches behind it) ends. */
  shutdown?: AbortSignal;
  /** muster's filter_tools, asked by the claude-Harness guards; absent, those writes are refused (fail closed). */
  toolsets?: ToolsetResolver;
  /** The workload clusters agents can be placed on; absent: only the management cluster. */
  workloads?: WorkloadClusters;
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
  /** Where commit mode writes when neither the release's Kustomization nor the request says. */
  gitops?: GitOpsDefaults;
  /** `--target-muster-url`: the muster agents on workload clusters reach; unset refuses their creates. */
  targetMusterUrl?: string;
  /** What agents of chart 2.x are composed with; default the platform Harness `kagent` and nothing else. */
  line2?: Omit<Line2Settings, 'target'>;
  /** The claude-Harness guards: the platform's origins per Harness and how muster is asked; absent fails closed. */
  claudeGuard?: ClaudeGuardSettings;
}

/** `--harness-egress`, the muster URL the toolset check asks and its bearer (the caller's with OAuth). */
export interface ClaudeGuardSettings {
  harnessEgress: HarnessEgress;
  musterUrl: string;
  oauth: boolean;
  /** Without OAuth: `--muster-token-file`'s token, read at every check. */
  serviceToken?: () => Promise<{ token: string } | { problem: string }>;
}

/** `--gitops-repository`, `--gitops-branch`, `--gitops-path`. */
export interface GitOpsDefaults {
  repository?: string;
  /**
   * `--gitops-repositories`: where the installation's credential may also open pull
   * requests (besides `repository` and the repositories the cluster's GitRepositories name).
   */
  repositories?: readonly string[];
  /**
   * With OAuth but the ServiceAccount making the calls: ask the API server whether the
   * caller may make a change (SubjectAccessReview) before commit mode proposes it.
   */
  reviewCallers?: boolean;
  branch: string;
  path: string;
}
