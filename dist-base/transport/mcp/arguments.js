import { invalid } from '../../core/errors.js';
import { inputShapeProblem } from '../input-guard.js';
import { fieldPath, valueAt } from '../field-path.js';
import { wrongTypeText } from '../type-errors.js';
/** Parse `args` with `schema`; throws the invalid_request AppError on a violation. */
export function parseArguments(tool, schema, args) {
    // Depth and `__proto__` keys in maps first: the schema would drop such a key silently.
    const problem = inputShapeProblem(args);
    if (problem)
        throw invalid(`${problem.field}${problem.reason}`);
    const parsed = schema.safeParse(args ?? {});
    if (parsed.success)
        return parsed.data;
    throw invalidArguments(tool, schema, args ?? {}, parsed.error.issues);
}
/** The AppError for the zod issues of `args`. */
export function invalidArguments(tool, schema, args, issues) {
    // Unknown fields first: the likeliest cause (a misspelt argument) and its remedy lead.
    const ordered = [...issues].sort((a, b) => rank(a) - rank(b));
    const reasons = ordered.map((issue) => reason(issue, tool, schema, args));
    return invalid([...new Set(reasons)].join('; '));
}
function rank(issue) {
    return issue.code === 'unrecognized_keys' ? 0 : 1;
}
function reason(issue, tool, schema, args) {
    const at = fieldPath(issue.path);
    switch (issue.code) {
        case 'unrecognized_keys': {
            const names = issue.keys.map((k) => JSON.stringify(k)).join(', ');
            const what = `unknown ${issue.keys.length === 1 ? 'field' : 'fields'} ${names}`;
            if (at)
                return `${at}: ${what}`;
            const known = Object.keys(schema.shape);
            return known.length === 0 ? `${what} (${tool} takes no arguments)`
                : `${what} (${tool} takes: ${known.join(', ')})`;
        }
        case 'invalid_type': {
            if (issue.path.length > 0 && valueAt(args, issue.path) === undefined)
                return `${at} is required`;
            // The REST words for the same mistake (one wording on both surfaces).
            return at ? wrongTypeText(at, issue.expected, valueAt(args, issue.path))
                : `arguments: ${stripPrefix(issue.message)}`;
        }
        default:
            return `${at || 'arguments'}: ${stripPrefix(issue.message)}`;
    }
}
// zod's messages start with "Invalid input: "; the sentinel already says the request is invalid.
function stripPrefix(message) {
    return message.replace(/^Invalid input: /, '');
}
//# sourceMappingURL=arguments.js.map