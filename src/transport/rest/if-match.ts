/**
 * The `If-Match` (RFC 9110 §13.1.1) and `If-None-Match` preconditions of REST. An agent's strong ETag
 * is its `version` (service/reads/agent-version.ts), which changes with the release's spec, labels and
 * annotations but not with status. `*` sets no version (a missing agent is 404 first, §13.2.1); one
 * strong tag is the version the write is sent with; a list matches when it holds the current version,
 * read first (weak tags never match); anything else is a 400 spelling the form.
 * docs/safe-change.md "Conflict-safe edits" gives the full rules.
 */
import { invalid, PreconditionFailed } from '../../core/errors.js';

/** A parsed `If-Match`: `*`, or the strong and weak tags it lists (opaque parts, unquoted). */
export type IfMatch = { any: true } | { any: false; strong: string[]; weak: string[] };

const TAG = /^(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"$/;

/** The parsed header, or undefined for none; `field` names it in the 400 (If-None-Match has the same form). */
export function parseIfMatch(header: string | undefined, field = 'If-Match'): IfMatch | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (value === '*') return { any: true };
  const strong: string[] = [];
  const weak: string[] = [];
  // RFC 9110 §5.6.1: a list may hold empty elements, which a recipient ignores.
  const elements = value.split(',').map((e) => e.trim()).filter((e) => e !== '');
  for (const element of elements) {
    const match = TAG.exec(element);
    if (!match) {
      throw invalid(
        `${field} must be * or entity tags in double quotes separated by commas, as GET sends them in ETag (e.g. ` +
        `${field}: "3-9f86d081"); got ${JSON.stringify(shownTag(value))}`,
      );
    }
    (match[1] ? weak : strong).push(match[2] ?? '');
  }
  if (elements.length === 0) {
    throw invalid(`${field} is empty: send the ETag GET answered (e.g. ${field}: "3-9f86d081"), or ` +
      `leave the header out`);
  }
  return { any: false, strong, weak };
}

/** The one version a precondition names without reading the agent, if it is that simple. */
export function singleVersion(ifMatch: IfMatch): string | undefined {
  if (ifMatch.any || ifMatch.weak.length > 0 || ifMatch.strong.length !== 1) return undefined;
  return ifMatch.strong[0] === '' ? undefined : ifMatch.strong[0];
}

/**
 * The version a list-valued (or weak) precondition stands for, given the agent's current
 * version (the read throws the 404 of a missing agent): the current version when the list
 * names it as a strong tag, else the 412 naming what was sent.
 */
export function versionFromList(
  ifMatch: IfMatch & { any: false }, current: string | undefined, namespace: string, name: string,
): string {
  if (current !== undefined && ifMatch.strong.includes(current)) return current;
  const sent = shownTag([...ifMatch.strong.map((t) => `"${t}"`), ...ifMatch.weak.map((t) => `W/"${t}"`)].join(', '));
  const now = current === undefined ? 'it has no HelmRelease' : `it is at version ${current}`;
  const weakNote = ifMatch.weak.length > 0 ? ' (a weak tag W/"…" never matches: If-Match compares strongly)' : '';
  return failed(`agent ${namespace}/${name} matches none of If-Match ${sent}: ${now}${weakNote}; read it again`);
}

/**
 * `If-None-Match` on a write (RFC 9110 §13.1.2), evaluated after If-Match against the
 * agent's current version: `*` is false for any agent that exists, a list is false when it
 * names the current version (weak comparison: `W/"44"` names 44 too). False is a 412;
 * true gives the version the write is then sent with, so a change in between is refused.
 */
export function versionUnlessNoneMatch(
  ifNoneMatch: IfMatch, current: string | undefined, namespace: string, name: string,
): string | undefined {
  const agent = `agent ${namespace}/${name}`;
  if (ifNoneMatch.any) {
    return failed(`${agent} exists, and If-None-Match: * asks for a write only when it does not; leave the header out`);
  }
  if (current !== undefined && [...ifNoneMatch.strong, ...ifNoneMatch.weak].includes(current)) {
    return failed(`${agent} is at version ${shownTag(current)}, which If-None-Match names; read it again, or ` +
      `leave the header out`);
  }
  return current;
}

/**
 * `If-Match` on a read of an agent (RFC 9110 §13.1.1: an origin server evaluates it whatever
 * the method): true for `*` (the agent exists, or the read would have been a 404) or a list
 * naming its current version as a strong tag; false is a 412, so a client can fetch an
 * agent only while it is at the version it holds.
 */
export function checkReadIfMatch(header: string | undefined, version: string | undefined, agent: string): void {
  const ifMatch = parseIfMatch(header);
  if (!ifMatch || ifMatch.any) return;
  if (version !== undefined && ifMatch.strong.includes(version)) return;
  const now = version === undefined ? 'it has no HelmRelease' : `it is at version ${version}`;
  failed(`agent ${agent} matches none of If-Match ${shownTag(header?.trim() ?? '')}: ${now}; read it without If-Match`);
}

/**
 * If-Match on a route whose answers carry no entity tag (status, lists, revisions, sessions …): RFC 9110
 * §13.1.1 has an origin server evaluate it for every method, and with no current entity tag only `*`
 * matches, so a listed tag is a 412 that names the routes that have versions.
 */
export function checkUnversionedIfMatch(header: string | undefined, route: string): void {
  const ifMatch = parseIfMatch(header);
  if (!ifMatch || ifMatch.any) return;
  failed(`${route} has no versions (its answers carry no ETag), so If-Match ${shownTag(header?.trim() ?? '')} ` +
    'matches nothing; send If-Match only to get, update, delete or roll back an agent, or omit it');
}

/** The longest part of an entity tag (or a list of them) a message quotes. */
export const SHOWN_TAG_CHARS = 200;

/** An entity tag for a message: cut at SHOWN_TAG_CHARS characters, with `…` when it was longer. */
export function shownTag(text: string): string {
  return text.length > SHOWN_TAG_CHARS ? `${text.slice(0, SHOWN_TAG_CHARS)}…` : text;
}

function failed(message: string): never {
  throw new PreconditionFailed(message);
}

/** An ETag header value for an agent's version. */
export function strongEtag(version: string): string {
  return `"${version}"`;
}
