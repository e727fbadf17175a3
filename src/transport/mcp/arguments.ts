/**
 * Tool arguments checked against the operation's zod schema, with refusals a model can act on: a
 * violation is an `invalid_request` AppError (the tool error `invalid_request: invalid request: <reason>`
 * like every bad input, not the SDK's "Input validation error"), naming the argument, what was expected,
 * and for an unknown field the arguments the tool takes. Absurd nesting and `__proto__` inside a map are
 * refused first (../input-limits.ts); a null argument is "not given" but for the safety switches, as on
 * REST (../null-fields.ts).
 */
import type { z } from 'zod';
import { invalid, type AppError } from '../../core/errors.js';
import { inputShapeProblem } from '../input/input-limits.js';
import { fieldPath, valueAt } from '../input/field-path.js';
import { isJsonObject } from '../../core/json.js';
import { nullRefusedFields, withoutNulls } from '../input/null-fields.js';
import { issueText, wrongTypeText } from '../input/type-errors.js';

type Issue = z.core.$ZodIssue;

/**
 * Arguments earlier versions of the tools took, refused with the reason (core/toolset/toolset-grammar.ts),
 * never advertised.
 */
export const REMOVED_ARGUMENTS: readonly string[] = ['toolNames'];

/** Parse `args` with `schema`; throws the invalid_request AppError on a violation. */
export function parseArguments<S extends z.ZodObject>(tool: string, schema: S, args: unknown): z.output<S> {
  // Depth and `__proto__` keys in maps first: the schema would drop such a key silently.
  const problem = inputShapeProblem(args);
  if (problem) throw invalid(`${problem.field}${problem.reason}`);
  const given = isJsonObject(args) ? withoutNulls(args, nullRefusedFields(schema)) : args ?? {};
  const parsed = schema.safeParse(given);
  if (parsed.success) return parsed.data;
  throw invalidArguments(tool, schema, given, parsed.error.issues);
}

/** The AppError for the zod issues of `args`. */
export function invalidArguments(tool: string, schema: z.ZodObject, args: unknown, issues: readonly Issue[]): AppError {
  // Unknown fields first: the likeliest cause (a misspelt argument) and its remedy lead.
  const ordered = [...issues].sort((a, b) => rank(a) - rank(b));
  const reasons = ordered.map((issue) => reason(issue, tool, schema, args));
  return invalid([...new Set(reasons)].join('; '));
}

function rank(issue: Issue): number {
  return issue.code === 'unrecognized_keys' ? 0 : 1;
}

function reason(issue: Issue, tool: string, schema: z.ZodObject, args: unknown): string {
  const at = fieldPath(issue.path);
  switch (issue.code) {
    case 'unrecognized_keys': {
      const names = issue.keys.map((k) => JSON.stringify(k)).join(', ');
      const what = `unknown ${issue.keys.length === 1 ? 'field' : 'fields'} ${names}`;
      if (at) return `${at}: ${what}`;
      const known = Object.keys(schema.shape).filter((name) => !REMOVED_ARGUMENTS.includes(name));
      return known.length === 0 ? `${what} (${tool} takes no arguments)`
        : `${what} (${tool} takes: ${known.join(', ')})`;
    }
    case 'invalid_type': {
      if (issue.path.length > 0 && valueAt(args, issue.path) === undefined) return `${at} is required`;
      // The REST words for the same mistake (one wording on both surfaces).
      return at ? wrongTypeText(at, issue.expected, valueAt(args, issue.path))
        : `arguments: ${issueText(issue, args)}`;
    }
    default:
      return `${at || 'arguments'}: ${issueText(issue, valueAt(args, issue.path))}`;
  }
}
