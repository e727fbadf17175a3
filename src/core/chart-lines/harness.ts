/**
 * Harnesses as agent-manager reads them: a name, the runtime it provides (the key of its spec: `kagent`, `claude`,
 * `codex`, `byo`, or whatever else a newer kagent names) and whether it reports Ready; and the refusals of a
 * `harness` argument naming none of the namespace's (inventory 5.7's texts, the valid names sorted). On update
 * the Harness must also be Ready: moving a running agent onto a Harness that cannot run it would take it down.
 * Pure.
 */
import { conditionStatus, parseConditions } from '../status/conditions.js';
import { goQuote } from '../go-quote.js';
import type { Harness } from '../types.js';
import type { ChartLine } from './major-line.js';
import { asObject } from '../json.js';

/** The spec keys that are not a runtime. */
const NOT_A_RUNTIME = new Set(['allowedAgentTemplates', 'egress', 'description']);

/** A Harness object as the wire reports it. */
export function harnessOf(object: { metadata: { name: string }; spec?: unknown; status?: unknown }): Harness {
  const spec = asObject(object.spec);
  const runtime = Object.keys(spec).find((k) => !NOT_A_RUNTIME.has(k) && typeof spec[k] === 'object') ?? 'unknown';
  const status = asObject(object.status);
  return { name: object.metadata.name, runtime, ready: conditionStatus(parseConditions(status.conditions), 'Ready') };
}

/** Why `harness` is not one of the namespace's Harnesses, or undefined when it is. */
export function missingHarnessText(harness: string, namespace: string, harnesses: readonly Harness[]): string |
  undefined {
  const names = harnesses.map((h) => h.name).sort();
  if (names.includes(harness)) return undefined;
  if (names.length === 0) {
    return `harness ${goQuote(harness)} does not exist in namespace ${namespace} (no Harness there)`;
  }
  return `harness ${goQuote(harness)} does not exist in namespace ${namespace}; valid: ${names.join(', ')}`;
}

/**
 * Why an update of an agent of `line` may not set `harness`: missing or not Ready on 2.x. None on 0.x, whose
 * own check (spec-checks.ts) already refuses the argument naming its line.
 */
export function harnessUpdateText(
  line: ChartLine, harness: string | null | undefined, namespace: string, harnesses: readonly Harness[],
): string | undefined {
  if (line !== '2.x' || typeof harness !== 'string' || harness.trim() === '') return undefined;
  return harnessChangeText(harness, namespace, harnesses);
}

/** Why an update may not move an agent onto `harness`: missing, or not Ready. */
export function harnessChangeText(harness: string, namespace: string, harnesses: readonly Harness[]): string |
  undefined {
  const missing = missingHarnessText(harness, namespace, harnesses);
  if (missing) return missing;
  const found = harnesses.find((h) => h.name === harness)!;
  if (found.ready === true) return undefined;
  return `harness ${goQuote(harness)} in namespace ${namespace} is not Ready (Ready is ` +
    `${found.ready === false ? 'False' : 'not reported'}), so the agent would stop running on it; wait for the ` +
    'Harness (list_harnesses) and try again';
}
