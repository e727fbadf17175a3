/**
 * The kagent Agent of each chart line as the product reads it: chart 0.x renders a `kagent.dev/v1alpha2` Agent
 * (the fields under `spec` and `spec.declarative`), chart 2.x an `api.kagent.dev/v1alpha3` Agent (a template run
 * on a Harness, with revisions in its status). The line is the API group, so a newer version of either group reads
 * as its line. Parsed once from untyped JSON where a read hands the Agent over; a field of the wrong type reads
 * as absent, never as an error. Pure.
 */
import { parseConditions } from '../status/conditions.js';
import type { Condition } from '../types.js';
import {
  asList, asObject, objectList, optionalString, stringField, stringList, wholeNumber, type JsonObject,
} from '../json.js';
import { parseMeta, type MetaView } from './object-meta.js';

/** The group of chart 2.x's kagent objects. */
export const KAGENT_V2_GROUP = 'api.kagent.dev';

interface AgentCommon {
  apiVersion?: string;
  meta: MetaView;
  conditions: Condition[];
  observedGeneration?: number;
}

/** A chart 0.x Agent (`kagent.dev`). Strings are absent when empty. */
export interface Agent0xView extends AgentCommon {
  line: '0.x';
  description?: string;
  iconUrl?: string;
  /** `spec.skills` as stored (core/skills/skill-reads.ts reads it). */
  skills: unknown;
  modelConfig?: string;
  runtime?: string;
  systemMessage?: string;
  /** `spec.declarative.tools`, the object entries. */
  tools: JsonObject[];
}

/** A chart 2.x Agent (`api.kagent.dev`). Strings are absent when empty. */
export interface Agent2xView extends AgentCommon {
  line: '2.x';
  /** `spec.harnessRef.name`: the Harness it runs on. */
  harness?: string;
  description?: string;
  /** `spec.template.modelConfig.name`. */
  modelConfig?: string;
  systemPrompt?: string;
  /** `spec.template.skills` and `.plugins`, an entry that is no object read as {}. */
  skills: JsonObject[];
  plugins: JsonObject[];
  desiredRevision?: number;
  latestSuccessfulRevision?: number;
  warnings: string[];
}

export type AgentView = Agent0xView | Agent2xView;

/** True for an Agent of chart 2.x (`api.kagent.dev/<v>`). */
export function isLine2Agent(object: { apiVersion?: unknown } | undefined): boolean {
  const apiVersion = object?.apiVersion;
  return typeof apiVersion === 'string' && apiVersion.startsWith(`${KAGENT_V2_GROUP}/`);
}

/** `object` (any JSON) read as the Agent of its chart line. */
export function parseAgent(object: unknown): AgentView {
  const raw = asObject(object);
  const status = asObject(raw.status);
  const common: AgentCommon = { meta: parseMeta(object), conditions: parseConditions(status.conditions) };
  const apiVersion = stringField(raw.apiVersion);
  const observed = wholeNumber(status.observedGeneration);
  if (apiVersion !== undefined) common.apiVersion = apiVersion;
  if (observed !== undefined) common.observedGeneration = observed;
  const spec = asObject(raw.spec);
  return isLine2Agent(raw) ? line2Agent(common, spec, status) : line0Agent(common, spec);
}

function line0Agent(common: AgentCommon, spec: JsonObject): Agent0xView {
  const declarative = asObject(spec.declarative);
  return {
    ...common, line: '0.x', skills: spec.skills, tools: objectList(declarative.tools),
    description: optionalString(spec.description), iconUrl: optionalString(spec.iconUrl),
    modelConfig: optionalString(declarative.modelConfig), runtime: optionalString(declarative.runtime),
    systemMessage: optionalString(declarative.systemMessage),
  };
}

function line2Agent(common: AgentCommon, spec: JsonObject, status: JsonObject): Agent2xView {
  const template = asObject(spec.template);
  return {
    ...common, line: '2.x',
    harness: optionalString(asObject(spec.harnessRef).name),
    description: optionalString(template.description),
    modelConfig: optionalString(asObject(template.modelConfig).name),
    systemPrompt: optionalString(template.systemPrompt),
    skills: asList(template.skills).map(asObject), plugins: asList(template.plugins).map(asObject),
    desiredRevision: wholeNumber(status.desiredRevision),
    latestSuccessfulRevision: wholeNumber(status.latestSuccessfulRevision),
    warnings: stringList(status.warnings) ?? [],
  };
}
