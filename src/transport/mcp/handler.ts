/**
 * The MCP endpoint (`--mcp-path`): the SDK's streamable HTTP transport in stateless mode, a fresh
 * server and transport per POST, since muster replays pooled sessions for an hour and any replica must
 * answer any request. Plain JSON responses, or SSE for a request with a progress token; a
 * `notifications/cancelled` is handed to the call it names (in-flight.ts); other methods are 405 with
 * `Allow: POST`, which the specification allows and clients read as "no stream".
 * docs/architecture.md "The MCP endpoint" says why each choice was made.
 */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode, isJSONRPCRequest, type CancelledNotification, type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import type { Metrics } from '../../metrics/app-metrics.js';
import { duplicateKey } from '../input/duplicate-keys.js';
import { header, sendCompactJson, type Handler, type HttpRequest, type HttpResponse } from '../http/exchange.js';
import type { AnyOperation, OperationService } from '../operations.js';
import { asCancellation, InFlightCalls, requestIds, singleToolCallId } from './in-flight.js';
import { acceptsMcpAnswers, headersAcceptable, notJsonRpc, refusesBatches } from './message-shape.js';
import { invalidParams, withoutTaskAugmentation } from './request-params.js';
import { jsonRpcError } from './json-rpc-error.js';
import { ANSWERED, asksForProgress, parseMessage, readPostBody } from './progress-body.js';
import { buildMcpServer, type TrackCall } from './mcp-server.js';
import { ToolCatalog } from './tools.js';

/** The POST body limit, as REST's. */
export const MCP_MAX_BODY_BYTES = 1024 * 1024;

export interface McpHandlerOptions {
  service: OperationService;
  log: Logger;
  /** The server version reported at initialize (package.json's). */
  version: string;
  metrics?: Metrics;
  /** The operations to offer; default: the whole table. */
  operations?: readonly AnyOperation[];
  /** How often a quiet call repeats its last progress notification; default 15 s (progress.ts). */
  progressHeartbeatMs?: number;
}

export { jsonRpcError };

const METHOD_NOT_ALLOWED = jsonRpcError(
  -32000,
  'Method not allowed: this MCP endpoint is stateless and offers no SSE stream and no sessions to end; send ' +
  'JSON-RPC messages with POST',
);

/** What every POST of one handler shares: the tools, the calls in flight (for cancellations), the version. */
interface HandlerState {
  catalog: ToolCatalog;
  inFlight: InFlightCalls;
  log: Logger;
  version: string;
  progressHeartbeatMs?: number;
}

/** The message of one POST, parsed once: its text (for the repeated-key check) and its value. */
type Message = ReturnType<typeof parseMessage>;

/** The handler of the MCP path; it reads the request body itself (run no body step before it). */
export function createMcpHandler(options: McpHandlerOptions): Handler {
  const state: HandlerState = {
    catalog: new ToolCatalog({ service: options.service, metrics: options.metrics, operations: options.operations }),
    inFlight: new InFlightCalls(), log: options.log, version: options.version,
    progressHeartbeatMs: options.progressHeartbeatMs,
  };
  return async (req: HttpRequest, res: HttpResponse): Promise<void> => {
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      sendCompactJson(res, 405, METHOD_NOT_ALLOWED);
      return;
    }
    // The transport compares the Accept header's text: one that accepts both types in other letter
    // cases is handed on in its words, and one that refuses either (q=0) as refusing both (406).
    const accepts = acceptsMcpAnswers(req.headers.accept);
    if (accepts !== undefined) req.headers.accept = accepts ? 'application/json, text/event-stream' : 'none';
    const body = await readPostBody(req, res, MCP_MAX_BODY_BYTES);
    if (body === ANSWERED) return;
    const message = parseMessage(body, MCP_MAX_BODY_BYTES);
    const refusal = refusalOf(req, message);
    if (refusal !== undefined) {
      sendCompactJson(res, 400, refusal);
      return;
    }
    await answer(state, req, res, message);
  };
}

/** The 400 answer a message gets before any server sees it (a repeated key, a batch, not JSON-RPC), or undefined. */
function refusalOf(req: HttpRequest, message: Message): ReturnType<typeof jsonRpcError> | undefined {
  // JSON.parse keeps the last of a repeated key, so `"dryRun": true, "dryRun": false` would write.
  const repeated = message && duplicateKey(message.text);
  if (repeated !== undefined) {
    return jsonRpcError(-32600, `Invalid Request: field "${repeated}" is given twice; send each field once`);
  }
  const protocolVersion = header(req, 'mcp-protocol-version');
  if (message && Array.isArray(message.value) && headersAcceptable(req) && refusesBatches(protocolVersion)) {
    return jsonRpcError(-32600, `Invalid Request: protocol version ${protocolVersion} has no ` +
      'JSON-RPC batches (MCP 2025-06-18 removed them); send one message per POST');
  }
  const shape = message && headersAcceptable(req) ? notJsonRpc(message.value) : undefined;
  return shape === undefined ? undefined : jsonRpcError(-32600, `Invalid Request: ${shape}`);
}

/** Runs one POST's message through a fresh server and transport (stateless mode) and answers it. */
async function answer(state: HandlerState, req: HttpRequest, res: HttpResponse, message: Message): Promise<void> {
  const stream = asksForProgress(message?.value);
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: !stream,
    maxRequestBodySize: MCP_MAX_BODY_BYTES,
  });
  // What the transport hands this request's server (set once connected).
  let deliver: Transport['onmessage'];
  const track = callTracker(state.inFlight, req, message, (id, cancellation) => {
    // The call's own server takes the cancellation as if it had come on this POST: it
    // aborts the call (its watches end) and sends no response for it, as MCP asks. The
    // response then ends without an answer: the SSE stream closes; a plain JSON answer,
    // not begun yet, becomes an empty event stream (a JSON body would have to carry one).
    deliver?.({ ...cancellation, jsonrpc: '2.0' });
    if (stream) transport.closeSSEStream(id);
    else if (!res.headersSent) {
      res.statusCode = 200;
      res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
      res.setHeader('Cache-Control', 'no-cache');
      res.end();
    }
  });
  const server = buildMcpServer({
    catalog: state.catalog, ctx: req.ctx, version: state.version, trackCall: track,
    progressHeartbeatMs: state.progressHeartbeatMs, onToolCall: (call) => { req.toolCall = call; },
  });
  // The transport reports what it answered with a 4xx (bad Accept, parse errors): the client's problem.
  transport.onerror = (err) => req.ctx.log.debug({ err: err.message }, 'mcp request refused');
  res.once('close', () => {
    void transport.close();
    void server.close();
  });
  try {
    await server.connect(transport);
    deliver = transport.onmessage;
    transport.onmessage = screened(transport, state.inFlight, req, deliver);
    // The parsed body, so the text is not parsed again; without one the transport reads req.rawBody.
    await transport.handleRequest(req, res, message?.value);
  } catch (err) {
    (req.ctx?.log ?? state.log).error({ err: err instanceof Error ? err.message : String(err) }, 'request failed');
    if (!res.headersSent) sendCompactJson(res, 500, jsonRpcError(-32603, 'Internal error'));
  }
}

/**
 * How this POST's one tool call is tracked, so a cancellation on a later POST reaches it (`onCancel`);
 * undefined without a single call. Every other request id is remembered too: a late cancellation of it
 * must not reach a call of the same id.
 */
function callTracker(
  inFlight: InFlightCalls, req: HttpRequest, message: Message,
  onCancel: (id: RequestId, cancellation: CancelledNotification) => void,
): TrackCall | undefined {
  const callId = singleToolCallId(message?.value);
  if (callId === undefined && message) for (const id of requestIds(message.value)) inFlight.saw(req.ctx, id);
  return callId === undefined ? undefined
    : (id: RequestId) => inFlight.track(req.ctx, id, (cancellation) => onCancel(id, cancellation));
}

/**
 * What the transport accepted (headers, version, shape), before the server sees it: params that do
 * not fit their method are answered -32602 here (request-params.ts), and a cancellation names a call
 * that came on an earlier POST (in-flight.ts); the rest goes on to `deliver`.
 */
function screened(
  transport: StreamableHTTPServerTransport, inFlight: InFlightCalls, req: HttpRequest,
  deliver: Transport['onmessage'],
): Transport['onmessage'] {
  return (given, extra) => {
    const received = withoutTaskAugmentation(given);
    const problem = invalidParams(received);
    if (problem !== undefined && isJSONRPCRequest(received)) {
      void transport.send({ jsonrpc: '2.0', id: received.id,
        error: { code: ErrorCode.InvalidParams, message: problem } }).catch(() => undefined);
      return;
    }
    const cancellation = asCancellation(received);
    if (cancellation) inFlight.cancel(req.ctx, cancellation);
    deliver?.(received, extra);
  };
}
