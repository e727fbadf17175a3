/**
 * Whose a schema violation is: the caller's change, or the live release it is merged into (values written
 * by hand, `runtime: rust` with kubectl, or that a newer chart schema refuses). A refusal must not blame
 * the caller for a field they did not send, but say the live release carries it and how to get past it.
 * Decided on paths alone: a violation is the live release's when the live values already have it and it
 * lies outside every path the update sets; anything else (a new one, one in a field the update sets, a
 * line with no path such as a schema that does not compile) is the change's. Pure.
 */
import { AGENT_STRING_FIELDS } from '../writes/compose.js';
import { isJsonObject } from '../json.js';
import type { AgentUpdate } from '../types.js';

/** The violations of the merged values, split by who brought them. */
export interface SplitViolations {
  /** Brought by the change (or not attributable to the live release): the caller fixes these. */
  change: string[];
  /** Already in the live values, in fields the change does not set. */
  live: string[];
}

/** The update arguments whose value paths are replaced whole, by their top-level key. */
const WHOLE_BLOCKS = ['skills', 'toolset', 'labels', 'annotations'] as const;

/** The dotted value paths an update sets (a blank string clears one, which is setting it too). */
export function updatePaths(update: AgentUpdate): string[] {
  const paths = AGENT_STRING_FIELDS.filter((field) => update[field] !== undefined).map((field) => `agent.${field}`);
  if (update.modelConfig !== undefined) paths.push('modelConfig.name');
  for (const key of WHOLE_BLOCKS) if (update[key] !== undefined) paths.push(key);
  return paths;
}

/** The path tokens of a violation line (`/agent/runtime: …` → agent, runtime; `(root): …` → none). */
export function violationPath(line: string): string[] | undefined {
  const at = line.indexOf(': ');
  if (at < 0) return undefined;
  const path = line.slice(0, at);
  if (path === '(root)') return [];
  return path.startsWith('/') ? path.slice(1).split('/') : undefined;
}

/** True when `tokens` is `set` or lies below it. */
function within(tokens: readonly string[], set: readonly string[]): boolean {
  return set.length <= tokens.length && set.every((token, i) => tokens[i] === token);
}

/** Splits `violations` of the merged values by the live values' own `liveViolations` and the paths the update sets. */
export function splitViolations(
  violations: readonly string[], liveViolations: readonly string[], setPaths: readonly string[],
): SplitViolations {
  const live = new Set(liveViolations);
  const set = setPaths.map((p) => p.split('.'));
  const out: SplitViolations = { change: [], live: [] };
  for (const line of violations) {
    const tokens = violationPath(line);
    const inherited = tokens !== undefined && live.has(line) && !set.some((s) => within(tokens, s));
    (inherited ? out.live : out.change).push(line);
  }
  return out;
}

/** The update argument that sets the value at `tokens`, if one does. */
function argumentFor(tokens: readonly string[]): string | undefined {
  const [top, field] = tokens;
  if (top === 'agent' && AGENT_STRING_FIELDS.some((f) => f === field)) return field;
  if (top === 'modelConfig' && (field === undefined || field === 'name')) return 'modelConfig';
  return WHOLE_BLOCKS.find((key) => key === top);
}

/** The first allowed value of a string enum at `tokens` in the schema's plain `properties`, if there is one. */
function allowedExample(schema: Record<string, unknown>, tokens: readonly string[]): string | undefined {
  let node: unknown = schema;
  for (const token of tokens) {
    const properties = isJsonObject(node) ? node.properties : undefined;
    node = isJsonObject(properties) ? properties[token] : undefined;
  }
  const allowed = isJsonObject(node) && Array.isArray(node.enum) ? node.enum : [];
  return allowed.find((v): v is string => typeof v === 'string' && v !== '');
}

/** How to set one inherited violation's field with the update (`runtime (runtime: "go", or "" …)`), if it can. */
function settableFix(
  tokens: readonly string[], schema: Record<string, unknown>,
): { argument: string; text: string } | undefined {
  const argument = argumentFor(tokens);
  if (argument === undefined) return undefined;
  const example = allowedExample(schema, tokens);
  const choices = [
    ...(example !== undefined ? [`${argument}: ${JSON.stringify(example)}`] : []),
    ...(tokens[0] === 'agent' ? ['"" for the chart default'] : []),
  ];
  return { argument, text: choices.length > 0 ? `${argument} (${choices.join(', or ')})` : argument };
}

/**
 * The sentence a refusal adds for violations the live release carries (`live`), saying which fields and
 * how to get past them: set the field in the same update or roll back (rollback_agent) when the update can
 * set it, else fix the release itself (`release`: `namespace/name`), since no update or rollback touches it.
 */
export function liveViolationsAdvice(
  live: readonly string[], schema: Record<string, unknown>, release: { namespace: string; name: string },
): string {
  const paths = [...new Set(live.map((line) => line.slice(0, line.indexOf(': '))))];
  const settable = new Map<string, string>();
  let byHand = false;
  for (const line of live) {
    const fix = settableFix(violationPath(line) ?? [], schema);
    if (fix === undefined) byHand = true;
    else if (!settable.has(fix.argument)) settable.set(fix.argument, fix.text);
  }
  const ways: string[] = [];
  if (settable.size > 0) {
    ways.push(`set ${[...settable.values()].join(' and ')} in this update, or roll back to a revision without ` +
      `${paths.length > 1 ? 'them' : 'it'} (rollback_agent)`);
  }
  if (byHand) {
    ways.push(`fix the release's values (kubectl edit helmrelease -n ${release.namespace} ${release.name}), which ` +
      'no update or rollback changes');
  }
  return `The live release already carries the value${paths.length > 1 ? 's' : ''} at ${paths.join(', ')}, ` +
    `which this change does not set: ${ways.join('; ')}`;
}
