/**
 * The params of the requests this server answers, checked with the SDK's own request schemas first,
 * so params of the wrong shape are JSON-RPC -32602 Invalid params in words a client can act on; the SDK
 * answers them -32603 Internal error with zod's issues as JSON. Only the check is ours: a request that
 * passes is handed on unchanged.
 */
import {
  CallToolRequestSchema, InitializeRequestSchema, isJSONRPCRequest, ListToolsRequestSchema, PingRequestSchema,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';

const SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
};

/** Why a request's params do not fit its method, or undefined (fits, unknown method, not a request). */
export function invalidParams(message: JSONRPCMessage): string | undefined {
  if (!isJSONRPCRequest(message)) return undefined;
  const schema = SCHEMAS[message.method];
  if (!schema) return undefined;
  const parsed = schema.safeParse(message);
  if (parsed.success) return undefined;
  const reasons = parsed.error.issues.map((issue) => `${issue.path.map(String).join('.')}: ${words(issue)}`);
  return `Invalid params of ${message.method}: ${[...new Set(reasons)].join('; ')}`;
}

function words(issue: z.core.$ZodIssue): string {
  // "expected nonoptional, received undefined" is zod's way of saying a required value is missing.
  if (issue.code === 'invalid_type' && (issue.expected === 'nonoptional' ||
    issue.message.endsWith('received undefined'))) return 'required';
  return issue.message.replace(/^Invalid input: /, '').replace('expected record', 'expected object');
}

/**
 * The request without `params.task`: MCP 2025-11-25 says a receiver that does not declare the tasks
 * capability (this server does not) processes the request normally, ignoring task augmentation;
 * the SDK would refuse it with -32603 instead.
 */
export function withoutTaskAugmentation(message: JSONRPCMessage): JSONRPCMessage {
  if (!isJSONRPCRequest(message) || message.params === undefined || !('task' in message.params)) return message;
  const { task: _ignored, ...params } = message.params;
  return { ...message, params };
}
