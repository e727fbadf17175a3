/**
 * Where in a request input a schema issue sits, for both transports: a REST body and MCP
 * tool arguments are the same JSON checked with the same zod schema, so both name a field
 * the same way (`skills.gitRefs[0].url`) and look up the value that was sent there the
 * same way (to tell a missing field from one of the wrong type).
 */

/** `['skills', 'gitRefs', 0, 'url']` as `skills.gitRefs[0].url`; the empty path as ''. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

/**
 * The value at `path` in `input`, or undefined where the path leaves the input. Only the
 * input's own properties count: a key such as `constructor` names nothing a client sent.
 */
export function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    if (!Object.prototype.hasOwnProperty.call(value, key)) return undefined;
    value = Reflect.get(value, key);
  }
  return value;
}
