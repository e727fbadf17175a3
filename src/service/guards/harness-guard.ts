/**
 * The claude-Harness guards in a write: an agent of chart 2.x whose Harness runs `claude` (a coding runtime with a
 * shell and network access) is written only once muster says, as the caller, that every tool its toolset reaches
 * is read-only, with the platform's egress and network note (core/guards/claude-guard.ts decides; muster is asked
 * through the ToolsetResolver port). Fails closed: no muster, no token or muster failing refuses the write.
 * Agents on any other Harness, and 0.x agents, pass unchanged.
 */
import type { ChartLine } from '../../core/chart-lines/major-line.js';
import type { Values } from '../../core/writes/compose.js';
import { claudeGuardDecision, claudeToolset, type GuardRefusal, type GuardVerdict } from
  '../../core/guards/claude-guard.js';
import { harnessOrigins } from '../../core/guards/harness-egress.js';
import { AppError } from '../../core/errors.js';
import type { Harness } from '../../core/types.js';
import { schemaDeclares } from '../../core/values-schema.js';
import { callerLogValue, type RequestContext } from '../../identity/caller.js';
import type { ResolvedSchema } from '../ports.js';
import type { OperationEnv } from '../operation-env.js';
import { checkClaudeToolset } from './claude-toolset-check.js';
import { asObject } from '../../core/json.js';

/** What a guarded write writes: the values (the note and egress added on a claude Harness) and the verdict. */
export type Guarded = { values: Values; guard?: GuardVerdict } | { refuse: GuardRefusal };

export interface GuardInput {
  line: ChartLine;
  values: Values;
  harnesses: readonly Harness[];
  schema: ResolvedSchema;
  requestedEgress?: readonly string[];
}

/** The Harness the values name, when it is one of the namespace's with the claude runtime. */
function claudeHarness(values: Values, harnesses: readonly Harness[]): string | undefined {
  const { harness } = asObject(values.agent);
  const name = typeof harness === 'string' ? harness : undefined;
  return harnesses.some((h) => h.name === name && h.runtime === 'claude') ? name : undefined;
}

/** The guard's outcome for the values a write would write. */
export async function guardValues(env: OperationEnv, ctx: RequestContext, input: GuardInput): Promise<Guarded> {
  const harness = input.line === '2.x' ? claudeHarness(input.values, input.harnesses) : undefined;
  if (!harness) return { values: input.values };
  const settings = env.settings.claudeGuard;
  const toolsetCheck = await checkClaudeToolset(
    { resolver: env.deps.toolsets, musterUrl: settings?.musterUrl ?? '', oauth: settings?.oauth ?? false,
      serviceToken: settings?.serviceToken },
    ctx, claudeToolset(input.values),
  );
  const decision = claudeGuardDecision({
    harness, harnessEgress: harnessOrigins(settings?.harnessEgress ?? {}, harness), values: input.values,
    requestedEgress: input.requestedEgress, caller: callerLogValue(ctx.caller), checkedAt: new Date().toISOString(),
    toolsetCheck,
  });
  if ('refuse' in decision) return decision;
  const values = structuredClone(decision.allow.values);
  // The egress is written only where the resolved chart declares it (chart 2.1 and later).
  if (!schemaDeclares(input.schema.schema, 'agent', 'egress')) delete (values.agent as Values).egress;
  return { values, guard: decision.allow.guard };
}

/** The values of an allowed write, or the refusal as the write answers it (its first reason). */
export function guardedValues(outcome: Guarded): { values: Values; guard?: GuardVerdict } {
  if ('refuse' in outcome) throw new AppError(outcome.refuse.code, outcome.refuse.reasons[0] ?? 'refused');
  return outcome;
}
