/**
 * The MCP endpoint (`--mcp-path`, default `/mcp`): the streamable HTTP transport of the
 * MCP SDK in STATELESS mode.
 *
 * Every POST gets a fresh server and transport (no `sessionIdGenerator`, so no
 * `Mcp-Session-Id` is issued or checked), closed when the response closes. Why: muster
 * pools one connection per session and replays it for up to an hour; a session table in
 * our memory would be gone after a restart or on another replica, and the SDK answers an
 * unknown session with 404. Stateless, any request works on any instance at any time,
 * whatever session id or none it carries. Every protocol version the SDK knows is
 * accepted, 2024-11-05 (muster's) included. Responses are plain JSON
 * (`enableJsonResponse`), except for a request that carries a progress token: it is
 * answered with an SSE stream, so the tool's progress notifications travel on it before
 * the result (progress-body.ts). The stream belongs to that one request and ends with
 * its result, so stateless serving is unchanged.
 *
 * GET and DELETE (and anything else but POST) are answered 405 with `Allow: POST` and a
 * JSON-RPC error body. The specification allows exactly this: a GET may be answered 405
 * when the server offers no SSE stream, and a DELETE 405 when clients cannot end sessions.
 * Clients handle it: mcp-go's continuous listening (muster's listening GET) stops on 405
 * ("server does not support listening") instead of retrying every second as it does on
 * any other status, and the TypeScript SDK client treats 405 as "no stream".
 */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import type { Metrics } from '../../metrics/metrics.js';
import { duplicateKey } from '../duplicate-keys.js';
import type { AnyOperation, OperationService } from '../operations.js';
import { asksForProgress, bufferBody, parseMessage } from './progress-body.js';
import { buildMcpServer } from './server.js';
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
}

/** A JSON-RPC error object without a request id (the transport level has none). */
export function jsonRpcError(code: number, message: string): { jsonrpc: '2.0'; error: { code: number; message: string }; id: null } {
  return { jsonrpc: '2.0', error: { code, message }, id: null };
}

const METHOD_NOT_ALLOWED = jsonRpcError(
  -32000,
  'Method not allowed: this MCP endpoint is stateless and offers no SSE stream and no sessions to end; send JSON-RPC messages with POST',
);

/** The express handler of the MCP path; it reads the request body itself (mount no body parser before it). */
export function createMcpHandler(options: McpHandlerOptions): RequestHandler {
  const catalog = new ToolCatalog({ service: options.service, metrics: options.metrics, operations: options.operations });
  const { log, version } = options;

  return async (req: Request, res: Response, _next: NextFunction): Promise<void> => {
    if (req.method !== 'POST') {
      res.status(405).set('Allow', 'POST').json(METHOD_NOT_ALLOWED);
      return;
    }
    const message = parseMessage(await bufferBody(req, MCP_MAX_BODY_BYTES), MCP_MAX_BODY_BYTES);
    // JSON.parse keeps the last of a repeated key, so `"dryRun": true, "dryRun": false` would write.
    const repeated = message && duplicateKey(message.text);
    if (repeated !== undefined) {
      res.status(400).json(jsonRpcError(-32600, `Invalid Request: field "${repeated}" is given twice; send each field once`));
      return;
    }
    const server = buildMcpServer(catalog, req.ctx, version);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: !asksForProgress(message?.value),
      maxRequestBodySize: MCP_MAX_BODY_BYTES,
    });
    // The transport reports what it answered with a 4xx (bad Accept, parse errors): the client's problem.
    transport.onerror = (err) => req.ctx.log.debug({ err: err.message }, 'mcp request refused');
    res.once('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      // The parsed body, so the text is not parsed again; without one the transport reads req.rawBody.
      await transport.handleRequest(req, res, message?.value);
    } catch (err) {
      (req.ctx?.log ?? log).error({ err: err instanceof Error ? err.message : String(err) }, 'request failed');
      if (!res.headersSent) res.status(500).json(jsonRpcError(-32603, 'Internal error'));
    }
  };
}
