/**
 * validate_agent: the dry run of create_agent (or, with `update`, of update_agent).
 * Create mode collects every problem instead of failing fast (name, toolset, skills,
 * modelConfig, an existing release or Agent, schema violations), always composes the
 * manifests and writes nothing. Update mode answers ownership and not-found problems as
 * errors (404/409) and collects the modelConfig and schema problems.
 */
import { chartNameOf, composeManifests } from '../../core/writes/compose.js';
import { lineSpecViolations } from '../../core/chart-lines/spec-checks.js';
import { composeValues, mergeValues } from '../chart-lines/compose-line.js';
import { lineChart, lineOf } from '../chart-lines/line-of.js';
import { readLineCatalog } from '../chart-lines/line-reads.js';
import { getAnyAgent } from '../reads/agent-objects.js';
import { metadataMapsViolations } from '../../core/labels.js';
import { nameViolation } from '../../core/names.js';
import { skillsViolations } from '../../core/skills/skill-input.js';
import { removedArgumentViolation, toolsetViolations } from '../../core/toolset/toolset-grammar.js';
import { toolsetNotes, unknownPresetViolation } from '../../core/toolset/toolset-preflight.js';
import type { AgentSpec, AgentUpdate, ValidateResult } from '../../core/types.js';
import type { RequestContext } from '../../identity/caller.js';
import { invalid } from '../../core/errors.js';
import { placedValues } from '../fleet/targeting.js';
import { liveSchemaViolations, modelConfigViolation, schemaViolations } from '../write-checks.js';
import type { OperationEnv } from '../operation-env.js';
import { mergeUpdate, withGuarded } from './prepare-update.js';
import { updateViolations } from '../../core/writes/update-checks.js';
import { readForUpdate } from './update-read.js';
import { guardValues, type Guarded } from '../guards/harness-guard.js';
import { SkillPinner, type Pinned } from './skill-pinning.js';
import { isAppError } from '../../core/errors.js';
import { parseSkillRefs, SKILL_REFS_ANNOTATION, type SkillRefs } from '../../core/skills/skill-pins.js';
import { agentSkills } from '../../core/skills/skill-reads.js';

export async function validateCreate(env: OperationEnv, ctx: RequestContext, spec: AgentSpec): Promise<ValidateResult> {
  const removed = removedArgumentViolation(spec);
  if (removed) throw invalid(removed);
  const namespace = env.settings.namespaces.resolve(spec.namespace);
  const { types } = env;
  const kube = env.kube(ctx);
  const errors: string[] = [];
  const badName = nameViolation(spec.name);
  if (badName) errors.push(badName);
  const policy = env.settings.toolsetPresets ?? {};
  const grammar = toolsetViolations(spec.toolset, { required: true });
  const presetProblem = grammar.length > 0 ? undefined : unknownPresetViolation(spec.toolset, policy);
  errors.push(...grammar, ...(presetProblem ? [presetProblem] : []));
  const toolsetProblem = grammar.length > 0 || presetProblem !== undefined;
  const skillProblems = spec.skills !== undefined ? skillsViolations(spec.skills) : [];
  errors.push(...skillProblems, ...metadataMapsViolations(spec));
  // The pins the create would write; a skill that does not resolve is one more error.
  const pinning = skillProblems.length > 0
    ? Promise.resolve<{ value: Pinned; refusal?: string }>({ value: { skills: spec.skills, refs: {} } })
    : collect(new SkillPinner(env.deps.skillResolver, ctx).pin(spec.skills), { skills: spec.skills, refs: {} });
  pinning.catch(() => undefined);

  const [release, agent, catalog, source] = await Promise.all([
    badName ? undefined : kube.get(types.helmRelease, namespace, spec.name),
    badName ? undefined : getAnyAgent(env, kube, namespace, spec.name),
    readLineCatalog(env, kube, namespace),
    kube.get(types.ociRepository, namespace, chartNameOf(env.compose.chartOciUrl)),
  ]);
  // The namespace's chart line decides the values' shape, its own checks and the schema.
  const line = lineOf(env, source, `the OCIRepository ${namespace}/${chartNameOf(env.compose.chartOciUrl)}`);
  const harnesses = catalog.harnesses(line);
  const schema = await env.deps.chart.schema(line);
  errors.push(...lineSpecViolations(line, spec, namespace, harnesses, lineChart(schema)));
  const modelConfigProblem = modelConfigViolation(namespace, spec.modelConfig, catalog.modelConfigs(line));
  if (modelConfigProblem) errors.push(modelConfigProblem);
  if (release) errors.push(`HelmRelease ${namespace}/${spec.name} already exists (use update_agent)`);
  if (agent) errors.push(`Agent ${namespace}/${spec.name} already exists`);
  const { value: pinned, refusal } = await pinning;
  if (refusal) errors.push(refusal);
  const composed = placedValues(env, composeValues(env, line, { ...spec, skills: pinned.skills }), schema);
  // On a claude Harness the guards answer as the write would: every reason among the errors, or the tools allowed.
  const guarded = await guardValues(env, ctx,
    { line, values: composed, harnesses, schema, requestedEgress: spec.egress });
  const values = 'refuse' in guarded ? composed : guarded.values;
  if ('refuse' in guarded) errors.push(...guarded.refuse.reasons);
  errors.push(...schemaViolations(schema, values));
  const out = result('create', errors, schema, composeManifests(namespace, spec.name ?? '', values, env.compose),
    toolsetProblem ? [] : toolsetNotes(spec.toolset, policy), agentSkills(values.skills, pinned.refs));
  return withGuard(out, guarded);
}

/** The answer with the guard's verdict (the tools the agent would reach), when the guards allowed it. */
function withGuard(out: ValidateResult, guarded: Guarded): ValidateResult {
  // A copy: the answer does not share the guards' own object.
  if (!('refuse' in guarded) && guarded.guard) {
    out.guard = { ...guarded.guard, tools: guarded.guard.tools.map((tool) => ({ ...tool })) };
  }
  return out;
}

export async function validateUpdate(
  env: OperationEnv, ctx: RequestContext, update: AgentUpdate,
): Promise<ValidateResult> {
  const removed = removedArgumentViolation(update);
  if (removed) throw invalid(removed);
  const namespace = env.settings.namespaces.resolve(update.namespace);
  const errors = updateViolations(update);
  const policy = env.settings.toolsetPresets ?? {};
  const toolsetProblem = toolsetViolations(update.toolset, { required: false }).length > 0;
  const presetProblem = toolsetProblem ? undefined : unknownPresetViolation(update.toolset, policy);
  if (presetProblem) errors.push(presetProblem);
  const notes = toolsetProblem || presetProblem ? [] : toolsetNotes(update.toolset, policy);
  if (nameViolation(update.name)) {
    // Without a valid name there is no agent to look up: report what is wrong with the request.
    const schema = await env.deps.chart.schema();
    return result('update', errors, schema, composeManifests(namespace, update.name ?? '', {}, env.compose), notes);
  }
  const read = await readForUpdate(env, env.kube(ctx), namespace, update);
  const { objects, modelConfigs, schema, line, lineProblems } = read;
  errors.push(...lineProblems);
  const skillsBad = update.skills !== undefined && skillsViolations(update.skills).length > 0;
  const release = objects.release;
  const { value: pinned, refusal } =
    release && !skillsBad
      ? await collect(
          new SkillPinner(env.deps.skillResolver, ctx).pinUpdate(update, release, {
            refresh: update.refreshSkills === true,
          }),
          { update },
        )
      : { value: { update } };
  if (refusal) errors.push(refusal);
  const unguarded = mergeUpdate(objects, pinned.update, modelConfigs, schema,
    (values, change) => mergeValues(env, line, values, change));
  const guarded = await guardValues(env, ctx,
    { line, values: unguarded.after, harnesses: read.harnesses, schema, requestedEgress: update.egress });
  if ('refuse' in guarded) errors.push(...guarded.refuse.reasons);
  const merged = 'refuse' in guarded ? unguarded : withGuarded(unguarded, guarded, schema);
  if (merged.modelConfigProblem) errors.push(merged.modelConfigProblem);
  errors.push(...merged.schemaViolations);
  // A value the live release carries, not this update, is said to be, with how to get past it (as update's refusal).
  const { advice } = liveSchemaViolations(schema, merged, pinned.update);
  if (advice) notes.push(advice);
  const refs: SkillRefs = 'annotation' in pinned && pinned.annotation !== undefined
    ? parseSkillRefs(pinned.annotation ?? undefined)
    : parseSkillRefs(merged.release.metadata.annotations?.[SKILL_REFS_ANNOTATION]);
  return withGuard(result('update', errors, schema,
    composeManifests(
      merged.release.metadata.namespace ?? namespace, merged.release.metadata.name, merged.after, env.compose,
    ),
    notes,
    agentSkills(merged.after.skills, refs)), guarded);
}

/** The answer of a pinning, or `fallback` with the refusal to report (a backend error is thrown: 502). */
async function collect<T>(pinning: Promise<T>, fallback: T): Promise<{ value: T; refusal?: string }> {
  try {
    return { value: await pinning };
  } catch (err) {
    if (!isAppError(err, 'invalid_request')) throw err;
    return { value: fallback, refusal: err.detail };
  }
}

function result(
  mode: 'create' | 'update', errors: string[], schema: { version: string; source: ValidateResult['schemaSource'] },
  manifests: ValidateResult['manifests'], notes: string[], skills?: ValidateResult['skills'],
): ValidateResult {
  const out: ValidateResult = {
    valid: errors.length === 0, mode, schemaVersion: schema.version, schemaSource: schema.source, manifests,
  };
  if (skills) out.skills = skills;
  if (errors.length > 0) out.errors = errors;
  if (notes.length > 0) out.notes = notes;
  return out;
}
