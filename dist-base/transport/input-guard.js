/**
 * The shape checks every request input passes before its zod schema, on both transports. Trust
 * boundary: parsed JSON a client sent. Nesting deeper than `MAX_INPUT_DEPTH` is refused (recursive code
 * after it would overflow the stack and answer 502), and so are `__proto__` keys below the top level
 * (zod's record schema skips them silently, and a write must never drop part of a request; at the top
 * level the strict schemas refuse them as unknown fields). The walk is iterative, safe at any depth.
 */
/** The deepest nesting of objects and lists accepted, the input object itself being level 1. */
export const MAX_INPUT_DEPTH = 64;
/**
 * The first shape problem of `input` (a parsed JSON object), or undefined. Fields are
 * walked in order, each completely, so the first problem in the input is the one named.
 */
export function inputShapeProblem(input) {
    const stack = [{ value: input, depth: 1, path: '', top: '' }];
    while (stack.length > 0) {
        const { value, depth, path, top } = stack.pop();
        if (typeof value !== 'object' || value === null)
            continue;
        if (depth > MAX_INPUT_DEPTH) {
            return { field: top, reason: ` nests objects and lists deeper than ${MAX_INPUT_DEPTH} levels` };
        }
        const children = [];
        if (Array.isArray(value)) {
            value.forEach((item, i) => children.push({ value: item, depth: depth + 1, path: `${path}[${i}]`, top }));
        }
        else {
            for (const key of Object.keys(value)) {
                const childPath = path === '' ? key : `${path}.${key}`;
                if (key === '__proto__' && depth > 1) {
                    return { field: childPath, reason: ': "__proto__" is not accepted as a key' };
                }
                const child = value[key];
                children.push({ value: child, depth: depth + 1, path: childPath, top: top || key });
            }
        }
        // Pushed in reverse, so fields are visited in their order.
        for (let i = children.length - 1; i >= 0; i--)
            stack.push(children[i]);
    }
    return undefined;
}
//# sourceMappingURL=input-guard.js.map