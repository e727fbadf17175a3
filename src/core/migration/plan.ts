/**
 * The expand plan of one namespace, decided from what was read: per release its target-line values (mapped, then
 * validated against the target line's schema), the diff, the notes, the refusals, and what expand does with it —
 * write it (ours), propose it as a pull request (GitOps-owned), or only report it (applied by someone else). A
 * namespace is written only when every release that has to move maps and validates: a half-moved namespace would
 * have its shared source follow neither line. Releases already on the target line are left as they are. Pure.
 */
import type { ChartLine } from '../chart-lines/major-line.js';
import type { Values } from '../writes/compose.js';
import { schemaErrorText, valuesViolations, type SchemaLabel } from '../values-schema.js';
import { mapTo0x } from './map-to-0x.js';
import { mapTo2x, type To2xOptions } from './map-to-2x.js';
import type { Mapped } from './mapped.js';
import { valuesDiff } from './values-diff.js';

/** Who writes a release: agent-manager, Flux from git (a Kustomization), or someone else. */
export type ReleaseOwner = 'agent-manager' | 'gitops' | 'external';

/** One release as expand sees it. */
export interface ReleaseFacts {
  name: string;
  /** The values to map: the live ones with their skills pinned. */
  values: Values;
  /** The live values, when pinning changed them (the diff starts from what runs). */
  live?: Values;
  line: ChartLine;
  owner: ReleaseOwner;
  /** The Kustomization (`namespace/name`) of a GitOps-owned release. */
  kustomization?: string;
  suspended: boolean;
  /** Why a skill of the release could not be pinned (it stops the namespace). */
  pinRefusal?: string;
}

/** What expand does with one release. */
export type AgentAction = 'move' | 'propose' | 'report' | 'unchanged' | 'refused';

export interface AgentPlan {
  name: string;
  action: AgentAction;
  owner: ReleaseOwner;
  before: Values;
  after?: Values;
  /** The unified diff of the values, `before` → `after` (empty when nothing changes). */
  diff: string;
  notes: string[];
  refusals: string[];
}

export interface NamespacePlan {
  namespace: string;
  from: ChartLine;
  to: ChartLine;
  /** The source the moved releases render from. */
  targetSource: string;
  agents: AgentPlan[];
  /** The agents whose refusals stop the namespace, sorted. */
  blockedBy: string[];
  /** Agents with no release behind them: reported, never written or deleted. */
  bareAgents: string[];
}

export interface PlanInput {
  namespace: string;
  to: ChartLine;
  targetSource: string;
  releases: readonly ReleaseFacts[];
  bareAgents: readonly string[];
  schema: { schema: Record<string, unknown>; label: SchemaLabel };
  options: To2xOptions;
}

/** The values of `values` on the line `to`. */
export function mapValues(values: Values, to: ChartLine, options: To2xOptions): Mapped {
  return to === '2.x' ? mapTo2x(values, options) : mapTo0x(values);
}

function actionOf(release: ReleaseFacts): AgentAction {
  if (release.owner === 'gitops') return 'propose';
  if (release.owner === 'external') return 'report';
  return 'move';
}

function planRelease(release: ReleaseFacts, input: PlanInput): AgentPlan {
  const base = { name: release.name, owner: release.owner, before: release.live ?? release.values };
  if (release.line === input.to) {
    return { ...base, action: 'unchanged', diff: '', notes: [`already on chart ${input.to}`], refusals: [] };
  }
  if (release.pinRefusal) {
    return { ...base, action: 'refused', diff: '', notes: [], refusals: [release.pinRefusal] };
  }
  const mapped = mapValues(release.values, input.to, input.options);
  const notes = [...mapped.notes];
  if (release.suspended) notes.push('the release is suspended: it gets its new values and stays suspended');
  if (!mapped.values) return { ...base, action: 'refused', diff: '', notes, refusals: mapped.refusals };
  const { schema, label } = input.schema;
  const violations = valuesViolations(schema, mapped.values, label);
  if (violations.length > 0) {
    return { ...base, action: 'refused', after: mapped.values, diff: valuesDiff(release.name, base.before,
      mapped.values), notes, refusals: [schemaErrorText(label.version, label.source, violations)] };
  }
  return {
    ...base, action: actionOf(release), after: mapped.values,
    diff: valuesDiff(release.name, base.before, mapped.values), notes, refusals: [],
  };
}

/** The expand plan of a namespace. */
export function planNamespace(input: PlanInput): NamespacePlan {
  const agents = [...input.releases].sort((a, b) => a.name.localeCompare(b.name)).map((r) => planRelease(r, input));
  return {
    namespace: input.namespace,
    from: input.to === '2.x' ? '0.x' : '2.x',
    to: input.to,
    targetSource: input.targetSource,
    agents,
    blockedBy: agents.filter((a) => a.action === 'refused').map((a) => a.name),
    bareAgents: [...input.bareAgents].sort(),
  };
}

/** True when expand may write the namespace: nothing refused. */
export function writable(plan: NamespacePlan): boolean {
  return plan.blockedBy.length === 0;
}
