/**
 * How every REST body is written: `application/json`, two-space indent and a trailing newline, with
 * `<`, `>`, `&`, U+2028 and U+2029 escaped as Go's `json.Encoder` does, so a body is safe inside HTML and
 * JavaScript. A list whose items are frozen objects (the read cache's agents) reuses each item's encoded
 * text, so a warm list of thousands is joined instead of serialized again, and a frozen answer
 * (get_info's, kept while unchanged) is encoded once; the bytes are the same. Frozen means deep-frozen
 * (core/frozen.ts): nothing inside such a value can change after its bytes were kept.
 */
import { isFrozenObject } from '../../core/frozen.js';
import { sendBody, type HttpResponse } from './exchange.js';

const ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

// These characters occur only inside JSON strings, so replacing them is exact, and
// replacing them piece by piece is the same as replacing them in the whole.
const escape = (text: string): string => text.replace(/[<>&\u2028\u2029]/g, (c) => ESCAPES[c] ?? c);

/** The text of a frozen item of a top-level list, at its depth (two levels of indent), escaped. */
const itemTexts = new WeakMap<object, string>();

function itemText(item: object): string {
  let text = itemTexts.get(item);
  if (text === undefined) {
    text = escape(JSON.stringify(item, null, 2).replaceAll('\n', '\n    '));
    itemTexts.set(item, text);
  }
  return text;
}

const isFrozenList = (value: unknown): value is object[] =>
  Array.isArray(value) && value.length > 0 && value.every(isFrozenObject);

/** `value` encoded piece by piece, when it is an object with a list of frozen items; else undefined. */
function encodeWithFrozenItems(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.isFrozen(value)) return undefined;
  // Most bodies hold no such list: they are told apart before their entries are copied.
  if (!Object.values(value).some(isFrozenList)) return undefined;
  const parts: string[] = [];
  for (const [key, inner] of Object.entries(value)) {
    const frozen = isFrozenList(inner);
    // JSON.stringify's type says string, but it gives undefined for what JSON cannot encode.
    const encoded: string | undefined = frozen ? undefined : JSON.stringify(inner, null, 2);
    const text = frozen ? `[\n    ${inner.map(itemText).join(',\n    ')}\n  ]` : encoded?.replaceAll('\n', '\n  ');
    // Left out when JSON cannot encode it (undefined, a function), as JSON.stringify does.
    if (text !== undefined) parts.push(`  ${escape(JSON.stringify(key))}: ${frozen ? text : escape(text)}`);
  }
  return `{\n${parts.join(',\n')}\n}`;
}

/** The body text of `value`. */
export function encodeJson(value: unknown): string {
  return `${encodeWithFrozenItems(value) ?? escape(JSON.stringify(value, null, 2))}\n`;
}

/**
 * Sends `value` as the response with `status`, typed exactly `application/json` as Go's was.
 * No ETag of the body is added and no 304 answered: an agent's ETag is its HelmRelease's
 * version, which stays the same while kagent's readiness in the same answer changes, so a
 * 304 on it would keep a cache's stale status; the only ETags are the ones the routes set,
 * and every GET answers the whole body.
 */
export function sendJson(res: HttpResponse, status: number, value: unknown): void {
  sendBody(res, status, 'application/json', bodyOf(value));
}

const frozenBodies = new WeakMap<object, Buffer>();

function bodyOf(value: unknown): Buffer {
  if (!isFrozenObject(value)) return Buffer.from(encodeJson(value), 'utf8');
  let body = frozenBodies.get(value);
  if (body === undefined) {
    body = Buffer.from(encodeJson(value), 'utf8');
    frozenBodies.set(value, body);
  }
  return body;
}
