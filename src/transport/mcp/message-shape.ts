/**
 * A POST body that is JSON but not a JSON-RPC message is an Invalid Request (-32600), as JSON-RPC 2.0
 * defines it, with words naming what is wrong; an empty batch too. The SDK's transport calls both a
 * parse error (-32700, meant for text that is not JSON) or answers an empty batch 202. Messages are
 * checked with the SDK's own schema, so what passes is exactly what the transport accepts.
 */
import type { IncomingMessage } from 'node:http';
import { JSONRPCMessageSchema, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import typeis from 'type-is';
import { asObject, isJsonObject } from '../../core/json.js';

/** Why a parsed body is not one JSON-RPC message or a non-empty batch of them; undefined when it is. */
export function notJsonRpc(parsed: unknown): string | undefined {
  if (!Array.isArray(parsed)) return problem(parsed);
  if (parsed.length === 0) return 'the batch is empty; send a JSON-RPC message';
  for (const [i, message] of parsed.entries()) {
    const p = problem(message);
    if (p) return `batch entry ${i}: ${p}`;
  }
  return batchProblem(parsed.map(asObject));
}

/**
 * What MCP and JSON-RPC forbid of a batch of valid messages: `initialize` inside one (MCP 2025-03-26,
 * Lifecycle: it MUST NOT be part of a batch), and two requests with one id, whose answers the client
 * could not tell apart (and the SDK's transport answers only one of them).
 */
function batchProblem(batch: readonly Record<string, unknown>[]): string | undefined {
  const ids = new Map<string, number>();
  for (const [i, message] of batch.entries()) {
    if (message.method === 'initialize') {
      return `batch entry ${i}: initialize must not be part of a JSON-RPC batch (MCP lifecycle); send it alone`;
    }
    if (!('method' in message) || !('id' in message)) continue;
    // 1 and "1" are different ids in JSON-RPC.
    const key = `${typeof message.id}:${String(message.id)}`;
    const first = ids.get(key);
    if (first !== undefined) {
      return `batch entries ${first} and ${i} are requests with the same id ${JSON.stringify(message.id)}; give ` +
        'each request of a batch its own id';
    }
    ids.set(key, i);
  }
  return undefined;
}

function problem(m: unknown): string | undefined {
  if (JSONRPCMessageSchema.safeParse(m).success) return undefined;
  if (!isJsonObject(m)) return `a JSON-RPC message is an object, not ${kind(m)}`;
  const message = m;
  if (message.jsonrpc !== '2.0') return 'jsonrpc must be "2.0"';
  if ('method' in message && typeof message.method !== 'string') return 'method must be a string';
  if ('id' in message && typeof message.id !== 'string' && !Number.isSafeInteger(message.id)) {
    return 'id must be a string or a whole number (MCP allows no null id)';
  }
  if ('params' in message && (typeof message.params !== 'object' || message.params === null ||
    Array.isArray(message.params))) {
    return 'params must be an object (MCP passes parameters by name)';
  }
  const meta = asObject(message.params)._meta;
  if (meta !== undefined && (typeof meta !== 'object' || meta === null || Array.isArray(meta))) {
    return 'params._meta must be an object';
  }
  const token = asObject(meta).progressToken;
  if (token !== undefined && typeof token !== 'string' && typeof token !== 'number') {
    return 'params._meta.progressToken must be a string or a number';
  }
  // The SDK's transport takes whole numbers only (the specification says number): say so, not "none of".
  if (typeof token === 'number' && !Number.isSafeInteger(token)) {
    return `params._meta.progressToken ${token} is not a whole number; send a string or a whole number`;
  }
  if (!('method' in message) && !('result' in message) && !('error' in message)) {
    return 'a message needs a method (a request or a notification) or a result or an error (a response)';
  }
  return 'it is none of a request {jsonrpc, id, method, params?}, a notification {jsonrpc, method, params?} or a ' +
    'response {jsonrpc, id, result or error}';
}

function kind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return `a ${typeof v}`;
}

/**
 * Whether the Accept header names both application/json and text/event-stream, as MCP's streamable
 * HTTP transport asks of every POST, read as RFC 9110 §12.5.1 reads it: media types compare
 * case-insensitively, and a range with q=0 is "not acceptable". Wildcards do not count: the
 * transport asks for both types by name. True, false, or undefined when there is no Accept header.
 */
export function acceptsMcpAnswers(header: string | undefined): boolean | undefined {
  if (header === undefined) return undefined;
  const accepted = new Set<string>();
  for (const range of header.split(',')) {
    const [type = '', ...params] = range.split(';').map((part) => part.trim());
    const q = params.map((p) => /^q\s*=\s*([0-9.]+)$/i.exec(p)).find(Boolean);
    if (q && !(Number(q[1]) > 0)) continue;
    accepted.add(type.toLowerCase());
  }
  return accepted.has('application/json') && accepted.has('text/event-stream');
}

/**
 * The MCP protocol versions without JSON-RPC batching (2025-06-18 removed it). A version the SDK does
 * not support is not judged here: the transport answers it as unsupported, whatever the body holds.
 */
export function refusesBatches(protocolVersion: string | undefined): boolean {
  return protocolVersion !== undefined && SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion) &&
    protocolVersion >= '2025-06-18';
}

/**
 * True when the request's headers pass the transport's own checks (it accepts JSON and
 * SSE, and sends JSON), so a wrong Accept or Content-Type is still answered 406 or 415
 * by the transport before anything is said about the body. A request without a body
 * (no Content-Length or Transfer-Encoding) never passes: `type-is` answers null for it.
 */
export function headersAcceptable(req: IncomingMessage): boolean {
  const accept = req.headers.accept ?? '';
  return accept.includes('application/json') && accept.includes('text/event-stream') &&
    typeis(req, ['application/json']) === 'application/json';
}
