/**
 * The shape checks every request input passes before its zod schema, on both transports. Trust
 * boundary: parsed JSON a client sent. Nesting deeper than `MAX_INPUT_DEPTH` is refused (recursive code
 * after it would overflow the stack and answer 502), and so are `__proto__` keys below the top level
 * (zod's record schema skips them silently, and a write must never drop part of a request; at the top
 * level the strict schemas refuse them as unknown fields), and so are strings with half a UTF-16 pair.
 * The walk is iterative, safe at any depth.
 */

// Half of a UTF-16 pair: a high surrogate not followed by a low one, or a low one not after a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The deepest nesting of objects and lists accepted, the input object itself being level 1. */
export const MAX_INPUT_DEPTH = 64;

/** What is wrong with an input's shape. */
export interface InputShapeProblem {
  /** The field it concerns, as `labels.__proto__` or the top-level field name. */
  field: string;
  /** The reason, to follow the field: ` nests …` or `: "__proto__" …`. */
  reason: string;
}

type Frame = { value: unknown; depth: number; path: string; top: string };

/**
 * The first shape problem of `input` (a parsed JSON object), or undefined. Fields are
 * walked in order, each completely, so the first problem in the input is the one named.
 */
export function inputShapeProblem(input: unknown): InputShapeProblem | undefined {
  const stack: Frame[] = [{ value: input, depth: 1, path: '', top: '' }];
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    const { value, depth, path, top } = frame;
    // JSON may escape half of a UTF-16 pair (`"\ud800"`): no Unicode text, and Go's decoder in the API
    // server would store U+FFFD in its place, so what was written would not be what was sent.
    if (typeof value === 'string' && LONE_SURROGATE.test(value)) {
      return { field: path || top, reason: ' holds a lone UTF-16 surrogate, which is not Unicode text' };
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_INPUT_DEPTH) {
      return { field: top, reason: ` nests objects and lists deeper than ${MAX_INPUT_DEPTH} levels` };
    }
    const children: Frame[] = [];
    if (Array.isArray(value)) {
      value.forEach((item, i) => children.push({ value: item, depth: depth + 1, path: `${path}[${i}]`, top }));
    } else {
      for (const [key, child] of Object.entries(value)) {
        const childPath = path === '' ? key : `${path}.${key}`;
        if (key === '__proto__' && depth > 1) {
          return { field: childPath, reason: ': "__proto__" is not accepted as a key' };
        }
        if (LONE_SURROGATE.test(key)) {
          return { field: path || top || '(the input)', reason: ' has a key with a lone UTF-16 surrogate' };
        }
        children.push({ value: child, depth: depth + 1, path: childPath, top: top || key });
      }
    }
    // Pushed in reverse, so fields are visited in their order.
    // One push per child (a spread of a long list would overflow the call's arguments).
    for (const child of children.reverse()) stack.push(child);
  }
  return undefined;
}
