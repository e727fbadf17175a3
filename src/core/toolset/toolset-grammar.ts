/**
 * Toolsets: the selector list naming which of muster's tools an agent is composed with, stored verbatim
 * as the chart's `toolset` value and sent as the `X-Muster-Toolset` header. This module owns the inline
 * grammar and its refusals (clients compare the texts), the refused `toolNames`, and the bounds that keep
 * the header sendable (visible ASCII, at most 4 KiB). It validates grammar only: it never resolves,
 * trims or de-duplicates selectors. A toolset is composition, not authorization.
 */
import { invalid } from '../errors.js';
import { goQuote } from '../go-quote.js';
import { asObject } from '../json.js';

/** The header the agent's muster binding carries the toolset in. */
export const TOOLSET_HEADER = 'X-Muster-Toolset';
/** The chart value the toolset is stored under. */
export const TOOLSET_VALUES_KEY = 'toolset';
/** The inline cap; a longer list belongs in a preset. 32 passes, 33 is refused. */
export const MAX_TOOLSET_SELECTORS = 32;
/**
 * The longest selector: a kind prefix (`workflow:` is the longest) and a name of at most
 * 128 characters, the longest tool name MCP allows (tool names SHOULD be 1 to 128
 * characters); a longer name can select nothing the gateway serves.
 */
export const MAX_SELECTOR_LENGTH = 'workflow:'.length + 128;
/**
 * The longest `X-Muster-Toolset` header value. HTTP servers and proxies commonly cap the
 * request's headers together at 8 KiB, and the agent's id_token and the other headers travel
 * beside this one, so the toolset gets half of that.
 */
export const MAX_TOOLSET_HEADER_BYTES = 4096;
/** How much of an over-long selector a refusal quotes. */
const QUOTED_PREFIX = 64;
/**
 * What a selector may contain beyond the grammar: only visible ASCII (U+0021 to U+007E)
 * and the whitespace the grammar refuses on its own, because the selector travels in an
 * HTTP header, where no control character and no byte beyond ASCII is safe (HTTP stacks
 * refuse control characters outright, and decode other bytes each their own way).
 */
const HEADER_SAFE = /^[\t\n\f\r\x20-\x7e]*$/;

/** The presets every installation has, in message order (used in messages only, never to validate). */
export const SHIPPED_PRESETS: readonly string[] = ['read-only', 'none', 'infrastructure', 'agent-platform', 'full'];

/**
 * The selector grammar, ported from Go RE2 `^(preset|server|workflow|tool):[^\s,]+$`.
 * RE2's `\s` is only TAB, LF, FF, CR and SPACE (JavaScript's also takes VT, NBSP and every
 * Unicode space), so the class is spelled out. `$` without the `m` flag is the end of the
 * text in JavaScript as in RE2: a trailing newline is malformed.
 */
export const SELECTOR_PATTERN = /^(preset|server|workflow|tool):[^\t\n\f\r ,]+$/;

const RESERVED_PREFIX = 'toolset:';
const PRESET_ONLY_PREFIX = 'label:';

const REQUIRED_TEXT =
  `toolset is required: declare which of the gateway's tools the agent can use, e.g. toolset: ["preset:read-only"]. ` +
  `Shipped presets: ${SHIPPED_PRESETS.map((p) => `preset:${p}`).join(', ')} — ` +
  'preset:none for a chat-only agent without tools, preset:full for the deliberate choice of every tool the gateway ' +
  'exposes';
const EMPTY_TEXT =
  'toolset is empty; use ["preset:none"] for an agent without tools (an empty list is refused so that "no tools" is ' +
  'never confused with implicit full access)';
// Go answers a non-list with a JSON binding error; ours says what the argument must look like.
const NOT_A_LIST_TEXT =
  'toolset must be a list of selector strings, e.g. toolset: ["preset:read-only"] (each preset:<name>, ' +
  'server:<name>, workflow:<name> or tool:<name>)';

/** Why `toolNames` is refused: it never narrowed muster's tools, a toolset does. */
export const TOOL_NAMES_REFUSAL =
  `toolNames never narrowed anything against muster (kagent filters muster's meta-tools only); declare a toolset ` +
  `instead, e.g. toolset: ["preset:read-only"]`;

/**
 * What is wrong with a declared toolset (the message without the `invalid request: `
 * prefix), or undefined when it is acceptable. `required` is true on create: an absent
 * toolset (undefined or JSON null) is refused there and means "unchanged" on update.
 * The first failing check decides: shape, empty, the cap (counted before any selector is
 * looked at), then each selector in order, then the header's size.
 */
export function toolsetViolation(selectors: unknown, opts: { required: boolean }): string | undefined {
  return toolsetViolations(selectors, opts)[0];
}

/**
 * Every problem of a declared toolset, in the order `toolsetViolation` checks them (it
 * answers the first): a shape, required or empty problem alone; else the cap, every bad
 * selector, and the header's size once every selector is fine. validate_agent reports
 * them all, as it does for the rest of the spec.
 */
export function toolsetViolations(selectors: unknown, opts: { required: boolean }): string[] {
  if (selectors === undefined || selectors === null) return opts.required ? [REQUIRED_TEXT] : [];
  if (!isStringList(selectors)) return [NOT_A_LIST_TEXT];
  if (selectors.length === 0) return [EMPTY_TEXT];
  const out: string[] = [];
  if (selectors.length > MAX_TOOLSET_SELECTORS) {
    out.push(`toolset has ${selectors.length} selectors, more than the inline cap of ${MAX_TOOLSET_SELECTORS}: ` +
      `define a preset (muster toolsetPresets) and reference it as preset:<name>`);
  }
  for (const selector of selectors) {
    const violation = selectorViolation(selector);
    if (violation !== undefined) out.push(violation);
  }
  const headerBytes = joinToolsetHeader(selectors).length;
  if (out.length === 0 && headerBytes > MAX_TOOLSET_HEADER_BYTES) {
    out.push(`toolset would make an ${TOOLSET_HEADER} header of ${headerBytes} bytes, more than ` +
      `${MAX_TOOLSET_HEADER_BYTES} (HTTP servers commonly cap all request headers together at 8 KiB, and the ` +
      `caller's token travels beside it): define a preset (muster toolsetPresets) and reference it as preset:<name>`);
  }
  return out;
}

/** Throws `invalid_request` (400) with the Go service's text when the toolset is refused. */
export function validateToolset(selectors: unknown, opts: { required: boolean }): void {
  const violation = toolsetViolation(selectors, opts);
  if (violation !== undefined) throw invalid(violation);
}

/** What is wrong with one selector, or undefined when it is grammatical and can travel in the header. */
export function selectorViolation(selector: string): string | undefined {
  if (selector.length > MAX_SELECTOR_LENGTH) {
    return `toolset selector ${goQuote(selector.slice(0, QUOTED_PREFIX))}… is ${selector.length} characters long, ` +
      `more than ${MAX_SELECTOR_LENGTH} (a kind such as workflow: and a name of at most 128 characters, the ` +
      `longest MCP tool name)`;
  }
  if (!HEADER_SAFE.test(selector)) {
    return `toolset selector ${goQuote(selector)} has a character the ${TOOLSET_HEADER} header cannot carry: only ` +
      `visible ASCII (no control characters, no letters beyond ASCII)`;
  }
  if (selector.startsWith(RESERVED_PREFIX)) {
    return `toolset selector ${goQuote(selector)}: the toolset: prefix is reserved for shared toolsets; reference a ` +
      `preset as preset:<name>`;
  }
  if (selector.startsWith(PRESET_ONLY_PREFIX)) {
    return `toolset selector ${goQuote(selector)}: label: selectors are allowed inside presets only; use a preset ` +
      `that selects by label (preset:infrastructure, preset:agent-platform)`;
  }
  if (!SELECTOR_PATTERN.test(selector)) {
    return `toolset selector ${goQuote(selector)} is not preset:<name>, server:<name>, workflow:<name> or ` +
      `tool:<name> (exact names, no whitespace or commas)`;
  }
  return undefined;
}

/**
 * The refusal of a removed argument the request still carries, or undefined. Only
 * `toolNames` is removed; JSON null counts as absent, any other value (even `[]`) is refused.
 */
export function removedArgumentViolation(input: unknown): string | undefined {
  const { toolNames } = asObject(input);
  return toolNames === undefined || toolNames === null ? undefined : TOOL_NAMES_REFUSAL;
}

/** Throws `invalid_request` when the request carries a removed argument; run it before any other check. */
export function validateRemovedArguments(input: unknown): void {
  const violation = removedArgumentViolation(input);
  if (violation !== undefined) throw invalid(violation);
}

/** The header value of a toolset: selectors joined with `,`, no spaces. */
export function joinToolsetHeader(selectors: readonly string[]): string {
  return selectors.join(',');
}

/**
 * Selectors read back from a rendered header value: split on `,`, each part trimmed the way
 * Go's `strings.TrimSpace` trims, empty parts dropped (`" , "` gives none). Read-back only;
 * this is not validation.
 */
export function parseToolsetHeader(value: string): string[] {
  return value
    .split(',')
    .map(goTrimSpace)
    .filter((s) => s !== '');
}

/** A toolset read back from a release, with why it is refused when it is. */
export type ReadToolset =
  | { toolset: string[]; toolsetProblem?: string }
  | { toolsetProblem: string }
  | { implicitFullAccess: true };

/**
 * The toolset of a release, from its HelmRelease values: the `toolset` value as declared,
 * with `toolsetProblem` saying why the chart refuses it when it does (an empty list, a bad
 * selector; a hand-applied release can hold anything), and only `toolsetProblem` when it
 * is not a list of strings at all. Only a release with no toolset value (absent or null, a
 * release made before toolsets existed) reads as implicit full access: its agent reaches
 * every tool the gateway gives its caller.
 */
export function readToolset(values: unknown): ReadToolset {
  const toolset = asObject(values)[TOOLSET_VALUES_KEY];
  if (toolset === undefined || toolset === null) return { implicitFullAccess: true };
  const problem = toolsetViolation(toolset, { required: false });
  if (!isStringList(toolset)) return { toolsetProblem: problem ?? NOT_A_LIST_TEXT };
  return problem === undefined ? { toolset: [...toolset] } : { toolset: [...toolset], toolsetProblem: problem };
}

function isStringList(value: unknown): value is string[] {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) {
    if (typeof value[i] !== 'string') return false;
  }
  return true;
}

// Go's unicode.IsSpace set (strings.TrimSpace): unlike String.prototype.trim it trims NEL
// (U+0085) and keeps BOM (U+FEFF).
const GO_SPACE = '[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const GO_TRIM = new RegExp(`^${GO_SPACE}+|${GO_SPACE}+$`, 'g');

/** `s` trimmed as Go's `strings.TrimSpace` trims it. */
export function goTrimSpace(s: string): string {
  return s.replace(GO_TRIM, '');
}
