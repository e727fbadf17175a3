/**
 * What a write answer echoes of the agent: create, update and rollback answer the agent, its manifests
 * and the values before and after, which repeat every free text the caller sent. A system message of
 * 900 KB made a 3.6 MB answer; so in a write's answer each string over ECHO_LIMIT characters (in
 * `agent`, `manifests` values and YAML, `before`, `after`) is cut there with a marker naming its full
 * length, while get_agent still returns it whole. Pure: the service applies it to each write result.
 */
import { parse } from 'yaml';
import { toYaml } from '../yaml.js';

/** The longest free text a write answer echoes whole: 4 KiB of characters. */
export const ECHO_LIMIT = 4096;

/** `text` cut to ECHO_LIMIT characters with the marker, or as it is when it fits. */
export function cutText(text: string): string {
  if (text.length <= ECHO_LIMIT) return text;
  // Never end on half of a surrogate pair.
  const end = /[\uD800-\uDBFF]/.test(text.charAt(ECHO_LIMIT - 1)) ? ECHO_LIMIT - 1 : ECHO_LIMIT;
  return `${text.slice(0, end)}…[cut: ${text.length} characters in all; get_agent returns it whole]`;
}

/** True when some string in `value` is longer than ECHO_LIMIT. */
function hasLongText(value: unknown): boolean {
  if (typeof value === 'string') return value.length > ECHO_LIMIT;
  if (typeof value !== 'object' || value === null) return false;
  return Object.values(value).some(hasLongText);
}

/** `value` with every string in it cut (a copy where one is; the same value where none is). */
export function cutLongTexts<T>(value: T): T {
  // safe: cutJson keeps the shape of what it is given (same keys, same item count), only shorter strings
  return cutJson(value) as T;
}

function cutJson(value: unknown): unknown {
  if (!hasLongText(value)) return value;
  if (typeof value === 'string') return cutText(value);
  if (Array.isArray(value)) return value.map(cutJson);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cutJson(v)]));
}

/**
 * A YAML manifest whose long strings are cut: it stays YAML that reads back (re-rendered as compose
 * renders it) rather than stopping mid-document. A manifest without a long string is returned as it is.
 */
export function cutYaml(yaml: string): string {
  if (yaml.length <= ECHO_LIMIT) return yaml;
  // Read as YAML 1.2 (no 1.1 timestamps): toYaml quotes every string so it reads back the same in both.
  const object: unknown = parse(yaml);
  return hasLongText(object) ? toYaml(cutLongTexts(object)) : yaml;
}

interface Manifests { ociRepository: string; helmRelease: string; values: Record<string, unknown> }
interface WriteEcho { agent?: unknown; manifests?: Manifests; before?: unknown; after?: unknown }

/** A write result as its answer echoes it: `agent`, `manifests`, `before` and `after` with long texts cut. */
export function echoOfWrite<R extends WriteEcho>(result: R): R {
  const out: R = { ...result };
  if (result.agent !== undefined) out.agent = cutLongTexts(result.agent);
  if (result.before !== undefined) out.before = cutLongTexts(result.before);
  if (result.after !== undefined) out.after = cutLongTexts(result.after);
  if (result.manifests) {
    const { ociRepository, helmRelease, values } = result.manifests;
    out.manifests = {
      ...result.manifests,
      ociRepository: cutYaml(ociRepository), helmRelease: cutYaml(helmRelease), values: cutLongTexts(values),
    };
  }
  return out;
}
