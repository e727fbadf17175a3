/**
 * The one wording of a value of the wrong JSON type, for both transports: REST bodies and
 * MCP tool arguments are the same JSON checked with the same schema, so a client reads the
 * same refusal on either surface: `invalid JSON: field "toolset" must be a list, not a
 * string` (the words of the Go service's JSON decoder, which REST clients already compare).
 */

/** `field "<path>" must be <expected>, not <actual>`, with the `invalid JSON: ` lead. */
export function wrongTypeText(field: string, expected: string, actual: unknown): string {
  // A fraction is a number too: name the value, not its kind (`must be a whole number, not 1.5`).
  const got = expected === 'int' && typeof actual === 'number' ? String(actual) : jsonKind(actual);
  return `invalid JSON: field ${JSON.stringify(field)} must be ${expectedKind(expected)}, not ${got}`;
}

/** What a zod `invalid_type` issue expected, in words. */
function expectedKind(expected: string): string {
  switch (expected) {
    case 'string': return 'a string';
    case 'boolean': return 'a boolean';
    case 'number': return 'a number';
    case 'int': return 'a whole number';
    case 'array': return 'a list';
    case 'object':
    case 'record': return 'an object';
    default: return expected;
  }
}

/** The JSON kind of a value, in words (`a string`, `an array`, `null`). */
export function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  // JSON.parse reads 1e400 as Infinity: a number out of range, which zod refuses as no number.
  if (typeof value === 'number') return Number.isFinite(value) ? 'a number' : 'a number out of range';
  if (typeof value === 'boolean') return 'a boolean';
  return typeof value;
}
