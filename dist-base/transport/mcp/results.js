import { toAppError, toMcpErrorText } from '../../core/errors.js';
/** A successful tool result. */
export function toToolResult(value) {
    const result = { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] };
    // structuredContent must be a JSON object; every operation result is one.
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
        result.structuredContent = value;
    }
    return result;
}
/** A failed tool result: `isError` with `"<code>: <message>"`. */
export function toToolError(err) {
    const error = toAppError(err);
    return { content: [{ type: 'text', text: toMcpErrorText(error) }], isError: true };
}
//# sourceMappingURL=results.js.map