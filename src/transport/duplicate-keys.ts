/**
 * The first object key a JSON text gives twice, or undefined, for both transports' bodies
 * (a REST body, an MCP JSON-RPC message). RFC 8259 §4 leaves the
 * meaning of a repeated name open and JSON.parse keeps the last one, so
 * `{"dryRun": true, "dryRun": false}` would silently be a real write, and a proxy or a log
 * that keeps the first sees another request than we do. A body that repeats a name is
 * refused instead (I-JSON, RFC 7493 §2.3, says such a text MUST NOT be sent).
 *
 * `text` must already have been accepted by JSON.parse: this only walks its structure
 * (strings skipped by their escapes, keys decoded with JSON.parse so `"a"` and `"\u0061"`
 * are the same name). It is a linear scan with no recursion, so depth costs nothing.
 */
import { fieldPath } from './field-path.js';

interface Frame {
  /** The keys seen so far; undefined for an array. */
  keys?: Set<string>;
  /** The path of this container in the document. */
  at: (string | number)[];
  /** Objects: whether the next string is a key. Arrays: the index of the current element. */
  expectKey: boolean;
  lastKey?: string;
  index: number;
}

/** The dotted path (`labels.team`, `skills.refs[0].name`) of the first repeated key. */
export function duplicateKey(text: string): string | undefined {
  const stack: Frame[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const top = stack[stack.length - 1];
    if (c === '"') {
      const end = stringEnd(text, i);
      if (top?.keys && top.expectKey) {
        const key = JSON.parse(text.slice(i, end)) as string;
        if (top.keys.has(key)) return fieldPath([...top.at, key]);
        top.keys.add(key);
        top.lastKey = key;
        top.expectKey = false;
      }
      i = end;
      continue;
    }
    if (c === '{' || c === '[') {
      const at = top ? [...top.at, top.keys ? (top.lastKey ?? '') : top.index] : [];
      stack.push({ keys: c === '{' ? new Set() : undefined, at, expectKey: true, index: 0 });
    } else if (c === '}' || c === ']') {
      stack.pop();
    } else if (c === ',' && top) {
      if (top.keys) top.expectKey = true;
      else top.index++;
    }
    i++;
  }
  return undefined;
}

/** The index just past the closing quote of the string that opens at `start`. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === '\\') i += 2;
    else if (c === '"') return i + 1;
    else i++;
  }
  return i;
}
