/**
 * The read surfaces that are not agents: get_info (what this installation is and can
 * do, kept while unchanged), list_model_configs (read-only: ModelConfigs are platform-admin owned) and
 * list_skills (delegated to the skill catalog; 501 when no repositories are configured).
 */
import { conditionStatus, findCondition } from '../../core/status/conditions.js';
import { jsonEqual } from '../../core/diff.js';
import { unsupported } from '../../core/errors.js';
import { knownPresets } from '../../core/toolset/toolset-preflight.js';
import { deepFreeze } from '../../core/frozen.js';
import type { ChartInfo, ChartLineInfo, Info, ModelConfig, SkillsResult } from '../../core/types.js';
import { chartLinesInfo } from '../chart-lines/lines-info.js';
import type { RequestContext } from '../../identity/caller.js';
import type { OperationEnv } from '../operation-env.js';
import { conditionsOf, prune } from './read-model.js';
import { asObject } from '../../core/json.js';

/**
 * get_info's answer, kept while what it reports is unchanged: everything but the chart's state and
 * the read cache's is fixed at start, so the same frozen object is answered until one of the two
 * changes (and its encoded body with it, send-json.ts). Both are asked on every call, so an answer
 * is never older than its sources; this only spares building and encoding the same answer again.
 */
export class InfoAnswer {
  #last: { chart: ChartInfo; readCache: Info['readCache']; chartLines: ChartLineInfo[]; info: Info } | undefined;
  #lines: { at: number; lines: ChartLineInfo[] } | undefined;

  constructor(private readonly env: OperationEnv) {}

  async get(ctx: RequestContext): Promise<Info> {
    const [chart, chartLines] = await Promise.all([this.env.deps.chart.info(), this.chartLines(ctx)]);
    const readCache = this.env.deps.readCache?.status() ?? READ_CACHE_OFF;
    const last = this.#last;
    // Without the cache the status is one constant, so identity answers before a comparison.
    const sameCache = last !== undefined && (last.readCache === readCache || jsonEqual(last.readCache, readCache));
    if (last && sameCache && jsonEqual(last.chart, chart) && jsonEqual(last.chartLines, chartLines)) return last.info;
    const info = deepFreeze(this.build(chart, readCache, chartLines));
    this.#last = { chart, readCache, chartLines, info };
    return info;
  }

  /**
   * The namespaces' chart lines, read at most every CHART_LINES_TTL_MS: get_info is asked often (muster and portals
   * call it first), and a namespace's line moves only when someone migrates it. What this replica answers may lag a
   * migration by that long; nothing decides on it (every write reads its own source).
   */
  private async chartLines(ctx: RequestContext): Promise<ChartLineInfo[]> {
    const now = Date.now();
    if (this.#lines && now - this.#lines.at < CHART_LINES_TTL_MS) return this.#lines.lines;
    const lines = await chartLinesInfo(this.env, this.env.reads(ctx));
    this.#lines = { at: now, lines };
    return lines;
  }

  private build(chart: ChartInfo, readCache: Info['readCache'], chartLines: ChartLineInfo[]): Info {
    const { settings, deps, compose } = this.env;
    const skillsRepositories = deps.skills?.repositories ?? [];
    const presets = settings.toolsetPresets ?? {};
    const flux: Info['flux'] = {
      helmReleaseInterval: compose.helmReleaseInterval,
      ociRepositoryInterval: compose.ociRepositoryInterval,
    };
    if (compose.helmReleaseServiceAccount) flux.serviceAccountName = compose.helmReleaseServiceAccount;
    return {
      version: settings.version,
      chart: { ...chart },
      namespaces: { default: settings.namespaces.defaultNamespace, managed: [...settings.namespaces.managed] },
      chartLines: structuredClone(chartLines),
      capabilities: {
        list: true, get: true, create: true, update: true, delete: true, status: true, validate: true,
        modelConfigs: true,
        skills: skillsRepositories.length > 0,
        writesAsCaller: deps.kube.identity === 'caller',
        // With only callers' tokens (no app or token configured) commit mode still works for a
        // request that sends X-GitHub-Token, but the installation cannot promise it.
        commit: deps.gitops?.installation !== undefined,
        sessions: deps.sessions !== undefined,
        targetCluster: deps.workloads !== undefined,
      },
      identity: deps.kube.identity,
      apiVersions: { ...settings.apiVersions },
      flux,
      skillsRepositories: [...skillsRepositories],
      toolset: { presets: knownPresets(presets), presetsChecked: presets.configured !== undefined },
      readCache: structuredClone(readCache),
      ...(deps.workloads ? { organizations: [...deps.workloads.organizations] } : {}),
    };
  }
}

const READ_CACHE_OFF: Info['readCache'] = { enabled: false, state: 'off' };

/** How long get_info's chartLines are reused before the namespaces' sources are read again. */
export const CHART_LINES_TTL_MS = 10_000;

export async function listModelConfigs(
  env: OperationEnv, ctx: RequestContext, namespaceArg?: string,
): Promise<{ modelConfigs: ModelConfig[] }> {
  const namespace = env.settings.namespaces.resolve(namespaceArg);
  const items = await env.reads(ctx).list(env.types.modelConfig, namespace);
  const modelConfigs = items.map((item): ModelConfig => {
    const spec = asObject(item.spec);
    const conditions = conditionsOf(item);
    const accepted = findCondition(conditions, 'Accepted');
    return prune({
      name: item.metadata.name,
      namespace: item.metadata.namespace ?? namespace,
      provider: typeof spec.provider === 'string' ? spec.provider : undefined,
      model: typeof spec.model === 'string' ? spec.model : undefined,
      accepted: conditionStatus(conditions, 'Accepted'),
      message: accepted?.message || undefined,
      managedBy: item.metadata.labels?.['app.kubernetes.io/managed-by'] || undefined,
    });
  });
  modelConfigs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { modelConfigs };
}

export interface SkillsRequest {
  repository?: string;
  ref?: string;
  refresh?: boolean;
}

export async function listSkills(
  env: OperationEnv, ctx: RequestContext, request: SkillsRequest,
): Promise<SkillsResult> {
  const catalog = env.deps.skills;
  if (!catalog || catalog.repositories.length === 0) throw unsupported('no skill repositories are configured');
  return catalog.list(request, ctx.signal);
}
