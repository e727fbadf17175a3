/**
 * The first object key a JSON text gives twice, for both transports' bodies. RFC 8259 §4 leaves a
 * repeated name's meaning open and JSON.parse keeps the last, so `{"dryRun": true, "dryRun": false}`
 * would silently write and a proxy keeping the first sees another request; such a body is refused
 * (I-JSON, RFC 7493 §2.3: it MUST NOT be sent). `text` must already parse; the scan is linear and
 * iterative (keys decoded so `"a"` and `"\u0061"` are one name): a container links to its parent and
 * the path is built only for the key it reports, so a body nested 200,000 deep costs no more than a flat one.
 */
import { fieldPath } from './field-path.js';

interface Frame {
  /** The keys seen so far; undefined for an array. */
  keys?: Set<string>;
  /** The container holding this one, and this one's key or index in it (the root has none). */
  parent?: Frame;
  step?: string | number;
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
        const key = String(JSON.parse(text.slice(i, end)));
        if (top.keys.has(key)) return fieldPath([...pathOf(top), key]);
        top.keys.add(key);
        top.lastKey = key;
        top.expectKey = false;
      }
      i = end;
      continue;
    }
    if (c === '{' || c === '[') {
      const step = top ? (top.keys ? (top.lastKey ?? '') : top.index) : undefined;
      stack.push({ keys: c === '{' ? new Set() : undefined, parent: top, step, expectKey: true, index: 0 });
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

/** The keys and indexes from the document's root to `frame`. */
function pathOf(frame: Frame): (string | number)[] {
  const steps: (string | number)[] = [];
  for (let at: Frame | undefined = frame; at?.step !== undefined; at = at.parent) steps.push(at.step);
  return steps.reverse();
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
