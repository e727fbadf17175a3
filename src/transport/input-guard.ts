/**
 * The shape checks every request input passes before its zod schema sees it, on both
 * transports (a REST body, MCP tool arguments). Trust boundary: the value is JSON a
 * client sent, parsed but not yet checked.
 *
 * Two things the schemas cannot be trusted with:
 * - Nesting depth. No input of ours nests deeper than four levels (a body, `skills`,
 *   `gitRefs`, one gitRef), but JSON.parse reads any depth, and recursive code after it
 *   (null stripping, error paths) would overflow the stack and answer 502. Anything
 *   deeper than `MAX_INPUT_DEPTH` is refused with the top-level field it sits under.
 * - `__proto__` keys below the top level. zod's record schema (labels, annotations)
 *   skips such a key without a word, so `{"labels":{"__proto__":{…}}}` would pass as
 *   `{}`; a write must never go ahead with part of the request silently dropped. At the
 *   top level the strict object schemas already refuse `__proto__` as an unknown field,
 *   so it is left to them and the refusal reads like any other unknown field.
 *
 * The walk is iterative, so it is itself safe at any depth.
 */

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
  while (stack.length > 0) {
    const { value, depth, path, top } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_INPUT_DEPTH) {
      return { field: top, reason: ` nests objects and lists deeper than ${MAX_INPUT_DEPTH} levels` };
    }
    const children: Frame[] = [];
    if (Array.isArray(value)) {
      value.forEach((item, i) => children.push({ value: item, depth: depth + 1, path: `${path}[${i}]`, top }));
    } else {
      for (const key of Object.keys(value)) {
        const childPath = path === '' ? key : `${path}.${key}`;
        if (key === '__proto__' && depth > 1) return { field: childPath, reason: ': "__proto__" is not accepted as a key' };
        const child = (value as Record<string, unknown>)[key];
        children.push({ value: child, depth: depth + 1, path: childPath, top: top || key });
      }
    }
    // Pushed in reverse, so fields are visited in their order.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return undefined;
}
