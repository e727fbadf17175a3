/**
 * validate_agent: the dry run of create_agent (or, with `update`, of update_agent).
 * Create mode collects every problem instead of failing fast (name, toolset, skills,
 * modelConfig, an existing release or Agent, schema violations), always composes the
 * manifests and writes nothing. Update mode answers ownership and not-found problems as
 * errors (404/409) and collects the modelConfig and schema problems.
 */
import { buildValues, composeManifests } from '../core/compose.js';
import { metadataMapsViolations } from '../core/labels.js';
import { nameViolation } from '../core/names.js';
import { skillsViolations } from '../core/skills.js';
import { removedArgumentViolation, toolsetViolations } from '../core/toolset.js';
import { toolsetNotes, unknownPresetViolation } from '../core/toolset-preflight.js';
import type { AgentSpec, AgentUpdate, ValidateResult } from '../core/types.js';
import type { RequestContext } from '../identity/caller.js';
import { invalid } from '../core/errors.js';
import { modelConfigViolation, schemaViolations } from './checks.js';
import type { OperationEnv } from './operation-env.js';
import { mergeUpdate, readForUpdate, updateViolations } from './update.js';

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
  if (spec.skills !== undefined) errors.push(...skillsViolations(spec.skills));
  errors.push(...metadataMapsViolations(spec));

  const [release, agent, modelConfigs, schema] = await Promise.all([
    badName ? undefined : kube.get(types.helmRelease, namespace, spec.name),
    badName ? undefined : kube.get(types.agent, namespace, spec.name),
    kube.list(types.modelConfig, namespace),
    env.deps.chart.schema(),
  ]);
  const modelConfigProblem = modelConfigViolation(namespace, spec.modelConfig, modelConfigs);
  if (modelConfigProblem) errors.push(modelConfigProblem);
  if (release) errors.push(`HelmRelease ${namespace}/${spec.name} already exists (use update_agent)`);
  if (agent) errors.push(`Agent ${namespace}/${spec.name} already exists`);
  const values = buildValues(spec);
  errors.push(...schemaViolations(schema, values));
  return result('create', errors, schema, composeManifests(namespace, spec.name ?? '', values, env.compose),
    toolsetProblem ? [] : toolsetNotes(spec.toolset, policy));
}

export async function validateUpdate(env: OperationEnv, ctx: RequestContext, update: AgentUpdate): Promise<ValidateResult> {
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
  const { objects, modelConfigs, schema } = await readForUpdate(env, env.kube(ctx), namespace, update);
  const merged = mergeUpdate(objects, update, modelConfigs, schema);
  if (merged.modelConfigProblem) errors.push(merged.modelConfigProblem);
  errors.push(...merged.schemaViolations);
  const { release } = merged;
  return result('update', errors, schema,
    composeManifests(release.metadata.namespace ?? namespace, release.metadata.name, merged.after, env.compose), notes);
}

function result(
  mode: 'create' | 'update', errors: string[], schema: { version: string; source: ValidateResult['schemaSource'] },
  manifests: ValidateResult['manifests'], notes: string[],
): ValidateResult {
  const out: ValidateResult = { valid: errors.length === 0, mode, schemaVersion: schema.version, schemaSource: schema.source, manifests };
  if (errors.length > 0) out.errors = errors;
  if (notes.length > 0) out.notes = notes;
  return out;
}
