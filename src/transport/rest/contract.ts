/**
 * The REST contract, checked by the compiler: the types openapi-typescript generates
 * from api/openapi.yaml (openapi-types.ts) against the wire shapes of core/types.ts, the
 * operation table's result types and its input schemas. If the document and the code
 * drift (a field added on one side, a type changed, a response re-pointed), `tsc`
 * fails here. The runtime half (real responses validate against the documented
 * schemas, routes match both ways) is in the tests beside this file.
 *
 * Regenerate the types after editing the document:
 * `npx openapi-typescript api/openapi.yaml -o src/transport/rest/openapi-types.ts`.
 */
import type { z } from 'zod';
import type * as core from '../../core/types.js';
import type { toRestErrorBody } from '../../core/errors.js';
import type * as ops from '../operations.js';
import type { createAgentInput, rollbackAgentInput, updateAgentInput, validateAgentInput } from '../operation-schemas.js';
import type { components, operations } from './openapi-types.js';

/** The documented schemas. */
export type Schemas = components['schemas'];

type Assert<T extends true> = T;
type Assignable<A, B> = [A] extends [B] ? true : false;
type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
/** Assignable both ways with the same keys: neither side has a field the other lacks. */
type Mirror<A, B> = Assignable<A, B> extends true ? (Assignable<B, A> extends true ? SameKeys<A, B> : false) : false;

/** The documented JSON body of an operation's response. */
export type DocumentedResponse<Id extends keyof operations, Status extends keyof operations[Id]['responses']> =
  operations[Id]['responses'][Status] extends { content: { 'application/json': infer Body } } ? Body : never;

type ResultOf<O> = O extends ops.Operation<infer _S, infer R> ? R : never;
/** The operation's result is exactly what its operationId documents for its success status. */
type Answers<O, Id extends keyof operations, Status extends keyof operations[Id]['responses']> =
  Mirror<ResultOf<O>, DocumentedResponse<Id, Status>>;

/** The wire shapes and the documented schemas are the same. */
export type WireShapesMatch = [
  Assert<Mirror<core.Agent, Schemas['Agent']>>,
  Assert<Mirror<core.HelmReleaseRef, Schemas['HelmReleaseRef']>>,
  Assert<Mirror<core.Condition, Schemas['Condition']>>,
  Assert<Mirror<core.GitRef, Schemas['GitRef']>>,
  Assert<Mirror<core.SkillsSpec, Schemas['Skills']>>,
  Assert<Mirror<core.Manifests, Schemas['Manifests']>>,
  Assert<Mirror<core.ValidateResult, Schemas['ValidateResult']>>,
  Assert<Mirror<core.CreateResult, Schemas['CreateResult']>>,
  Assert<Mirror<core.UpdateResult, Schemas['UpdateResult']>>,
  Assert<Mirror<core.DeleteResult, Schemas['DeleteResult']>>,
  Assert<Mirror<core.Status, Schemas['Status']>>,
  Assert<Mirror<core.HistoryEntry, Schemas['HistoryEntry']>>,
  Assert<Mirror<core.PodStatus, Schemas['PodStatus']>>,
  Assert<Mirror<core.ContainerStatus, Schemas['ContainerStatus']>>,
  Assert<Mirror<core.EventSummary, Schemas['EventSummary']>>,
  Assert<Mirror<core.ModelConfig, Schemas['ModelConfig']>>,
  Assert<Mirror<core.Skill, Schemas['Skill']>>,
  Assert<Mirror<core.SkillRepository, Schemas['SkillRepository']>>,
  Assert<Mirror<core.SkillsResult, Schemas['SkillsResult']>>,
  Assert<Mirror<core.ChartInfo, Schemas['ChartInfo']>>,
  Assert<Mirror<core.Info, Schemas['Info']>>,
  Assert<Mirror<core.RevisionSpec, Schemas['RevisionSpec']>>,
  Assert<Mirror<core.RevisionEntry, Schemas['RevisionEntry']>>,
  Assert<Mirror<core.RevisionDetail, Schemas['RevisionDetail']>>,
  Assert<Mirror<core.RollbackResult, Schemas['RollbackResult']>>,
  Assert<Mirror<core.ReadCacheInfo, Schemas['ReadCacheInfo']>>,
  Assert<Mirror<ReturnType<typeof toRestErrorBody>, Schemas['Error']>>,
];

/** Every operation answers what its operationId documents. */
export type OperationsAnswerAsDocumented = [
  Assert<Answers<typeof ops.getInfo, 'getInfo', 200>>,
  Assert<Answers<typeof ops.listAgents, 'listAgents', 200>>,
  Assert<Answers<typeof ops.getAgent, 'getAgent', 200>>,
  Assert<Answers<typeof ops.createAgent, 'createAgent', 201>>,
  // A dry run of a create answers 200 (nothing was created) with the same shape.
  Assert<Answers<typeof ops.createAgent, 'createAgent', 200>>,
  Assert<Answers<typeof ops.updateAgent, 'updateAgent', 200>>,
  Assert<Answers<typeof ops.deleteAgent, 'deleteAgent', 200>>,
  Assert<Answers<typeof ops.getAgentStatus, 'getAgentStatus', 200>>,
  Assert<Answers<typeof ops.validateAgent, 'validateAgent', 200>>,
  Assert<Answers<typeof ops.listModelConfigs, 'listModelConfigs', 200>>,
  Assert<Answers<typeof ops.listSkills, 'listSkills', 200>>,
  Assert<Answers<typeof ops.listAgentRevisions, 'listAgentRevisions', 200>>,
  Assert<Answers<typeof ops.getAgentRevision, 'getAgentRevision', 200>>,
  Assert<Answers<typeof ops.rollbackAgent, 'rollbackAgent', 200>>,
];

// The document advertises runtime's values (go, python); the input schema leaves the
// verdict to the chart schema, so runtime is compared apart from the other fields.
type Body<T> = Omit<T, 'runtime'>;
// The document requires a toolset on create; the input schema leaves that refusal (and its
// text naming the presets) to the service, so the schema is compared with one given.
type ToolsetGiven = { toolset: string[] };
// PATCH takes the agent from the path.
type PathParams = operations['updateAgent']['parameters']['path'];

/** A body the document allows is accepted by the input schema, and the schema accepts nothing else. */
export type BodiesMatchInputs = [
  Assert<Assignable<Schemas['Spec'], z.input<typeof createAgentInput>>>,
  Assert<Assignable<Body<z.input<typeof createAgentInput>> & ToolsetGiven, Body<Schemas['Spec']>>>,
  Assert<SameKeys<z.input<typeof createAgentInput>, Schemas['Spec']>>,
  Assert<Assignable<Schemas['Update'] & PathParams, z.input<typeof updateAgentInput>>>,
  Assert<Assignable<Body<z.input<typeof updateAgentInput>>, Body<Schemas['Update']>>>,
  Assert<SameKeys<z.input<typeof updateAgentInput>, Schemas['Update']>>,
  Assert<Assignable<Schemas['ValidateRequest'], z.input<typeof validateAgentInput>>>,
  Assert<Assignable<Body<z.input<typeof validateAgentInput>>, Body<Schemas['ValidateRequest']>>>,
  Assert<SameKeys<z.input<typeof validateAgentInput>, Schemas['ValidateRequest']>>,
  Assert<Assignable<Schemas['AgentFields']['runtime'], z.input<typeof createAgentInput>['runtime']>>,
  Assert<Assignable<Schemas['RollbackRequest'] & PathParams, z.input<typeof rollbackAgentInput>>>,
  Assert<Assignable<z.input<typeof rollbackAgentInput>, Schemas['RollbackRequest']>>,
  Assert<SameKeys<z.input<typeof rollbackAgentInput>, Schemas['RollbackRequest']>>,
];
