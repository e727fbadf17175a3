/**
 * How operation outcomes become MCP tool results. A success is the service's result as
 * pretty JSON text (2-space indent, so `"identity": "serviceAccount"`
 * reads the same) in one text content, and the same object as `structuredContent` for
 * clients that read structure. A failure is a tool result with `isError: true` and the
 * text `"<code>: <message>"`, which the model reads and can act on; handlers never answer
 * with a JSON-RPC error.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toAppError, toMcpErrorText, type AppError } from '../../core/errors.js';
import { isJsonObject } from '../../core/json.js';

/** A successful tool result. */
export function toToolResult(value: unknown): CallToolResult {
  const result: CallToolResult = { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] };
  // structuredContent must be a JSON object; every operation result is one.
  if (isJsonObject(value)) result.structuredContent = value;
  return result;
}

/** A failed tool result: `isError` with `"<code>: <message>"`. */
export function toToolError(err: unknown): CallToolResult {
  const error: AppError = toAppError(err);
  return { content: [{ type: 'text', text: toMcpErrorText(error) }], isError: true };
}
