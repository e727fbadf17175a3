/**
 * The one wording of a value of the wrong JSON type, for both transports: REST bodies and
 * MCP tool arguments are the same JSON checked with the same schema, so a client reads the
 * same refusal on either surface: `invalid JSON: field "toolset" must be a list, not a
 * string` (the words of the Go service's JSON decoder, which REST clients already compare).
 */

import type { z } from 'zod';

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

type Issue = z.core.$ZodIssue;

/**
 * A schema issue other than a wrong type, in words a client can act on: the allowed values or the
 * bound, and what was given (`must be one of "apply", "commit", not "yolo"`; `must be at least 1,
 * not 0`). Other issues keep the schema library's words, without its "Invalid input: " lead.
 */
export function issueText(issue: Issue, actual: unknown): string {
  switch (issue.code) {
    case 'invalid_value': {
      const values = issue.values.map((v) => JSON.stringify(v)).join(', ');
      return `must be ${issue.values.length === 1 ? '' : 'one of '}${values}, not ${shown(actual)}`;
    }
    case 'too_small':
      return `must be ${issue.inclusive === false ? 'more than' : 'at least'} ${measure(issue.minimum, issue.origin)}` +
        `, not ${shownSize(actual, issue.origin)}`;
    case 'too_big':
      return `must be ${issue.inclusive === false ? 'less than' : 'at most'} ${measure(issue.maximum, issue.origin)}` +
        `, not ${shownSize(actual, issue.origin)}`;
    default:
      return issue.message.replace(/^Invalid input: /, '');
  }
}

function measure(bound: number | bigint, origin: string): string {
  if (origin === 'string') return `${bound} characters`;
  if (origin === 'array' || origin === 'set') return `${bound} items`;
  return String(bound);
}

function shownSize(actual: unknown, origin: string): string {
  if (origin === 'string' && typeof actual === 'string') return `${actual.length} characters`;
  if ((origin === 'array' || origin === 'set') && Array.isArray(actual)) return `${actual.length} items`;
  return shown(actual);
}

// A caller's value, quoted up to 64 characters (it may be anything a client sent).
function shown(actual: unknown): string {
  if (typeof actual === 'string') return JSON.stringify(actual.length > 64 ? `${actual.slice(0, 64)}…` : actual);
  if (typeof actual === 'number' || typeof actual === 'boolean') return String(actual);
  return jsonKind(actual);
}
