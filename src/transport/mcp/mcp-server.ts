/**
 * One MCP server per HTTP request, bound to its context, so a tool call runs as exactly that request's
 * caller and no state outlives it. The SDK's low-level `Server`, not `McpServer.registerTool`: a bad
 * argument must read like every other refusal (`invalid_request: …`, so a model can correct itself) and
 * the fixed tool set advertises no `listChanged`. Definitions come from the operation table; `tools/call`
 * takes a lenient envelope (request-params.ts checks params first) that hands arguments over as parsed,
 * so `__proto__` reaches the strict schema and is refused rather than dropped.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, ListToolsRequestSchema, type CallToolRequest,
  type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { RequestContext } from '../../identity/caller.js';
import type { ToolCallRecord } from '../http/exchange.js';
import { MCP_INSTRUCTIONS } from './instructions.js';
import { PROGRESS_HEARTBEAT_MS, ProgressReporter } from './progress.js';
import type { ToolCatalog } from './tools.js';

/** The server name clients and muster see (muster prefixes tools with it). */
export const MCP_SERVER_NAME = 'agent-manager';

/** `tools/call` with its params unchecked here: they are checked before (see above). */
const ToolCallEnvelope = z.object({ method: z.literal('tools/call'), params: z.unknown() });

/** The call's progress notifications, when it carries a progress token (progress.ts). */
function progressOf(params: CallToolRequest['params'], extra: ToolCallExtra,
  heartbeatMs: number): ProgressReporter | undefined {
  const progressToken = params._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  return new ProgressReporter((progress, message) => {
    extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress, message } })
      .catch(() => undefined);
  }, heartbeatMs);
}

/**
 * A -32602 JSON-RPC error whose message is just the words. An McpError puts
 * "MCP error -32602: " before them on the wire, and the SDK client puts it there again,
 * so a caller read the code twice; the code is in the error's own field.
 */
function invalidParams(message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code: ErrorCode.InvalidParams });
}

type ToolCallExtra = Parameters<Parameters<Server['setRequestHandler']>[1]>[1];

/**
 * Called when a tool call starts, with its request id; the function it returns is called
 * once the call has its result (the handler keeps a call cancellable meanwhile: in-flight.ts).
 */
export type TrackCall = (requestId: RequestId) => () => void;

export interface McpServerOptions {
  catalog: ToolCatalog;
  ctx: RequestContext;
  version: string;
  trackCall?: TrackCall;
  /** How often a quiet call repeats its last progress (progress.ts); default 15 s. */
  progressHeartbeatMs?: number;
  /**
   * Hears of a tool call when it starts, with a record that gets the call's outcome once it ends
   * (the access log line names both, request-log.ts).
   */
  onToolCall?(call: ToolCallRecord): void;
}

/** A server for one request. */
export function buildMcpServer(options: McpServerOptions): Server {
  const { catalog, ctx, version, trackCall } = options;
  const server = new Server(
    { name: MCP_SERVER_NAME, version },
    { capabilities: { tools: {} }, instructions: MCP_INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    // The whole list is one page and never has a nextCursor, so any cursor is one we did
    // not issue: MCP pagination asks for -32602 on an invalid cursor, not a silent first page.
    if (request.params?.cursor !== undefined) {
      throw invalidParams('invalid cursor: tools/list answers every tool on one page and issues no cursors; ' +
        'call it without one');
    }
    return { tools: [...catalog.tools] };
  });
  server.setRequestHandler(ToolCallEnvelope, async (request, extra) => {
    // The SDK has checked the params against CallToolRequestSchema before this runs.
    const params = request.params as CallToolRequest['params'];
    const operation = catalog.operation(params.name);
    if (!operation) {
      const names = catalog.tools.map((t) => t.name).join(', ');
      throw invalidParams(`unknown tool "${params.name}"; the tools are: ${names}`);
    }
    // Stop work when either the HTTP client leaves or the MCP client cancels the call.
    const signal = ctx.signal ? AbortSignal.any([ctx.signal, extra.signal]) : extra.signal;
    const done = trackCall?.(extra.requestId);
    const progress = progressOf(params, extra, options.progressHeartbeatMs ?? PROGRESS_HEARTBEAT_MS);
    const record: ToolCallRecord = { tool: operation.tool };
    options.onToolCall?.(record);
    try {
      return await catalog.call(operation, params.arguments, { ...ctx, signal, progress: progress?.report },
        (outcome) => { record.outcome = outcome; });
    } finally {
      progress?.stop();
      done?.();
    }
  });
  return server;
}
