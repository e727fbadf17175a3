/**
 * The MCP path's handler, loaded on first use: the MCP SDK and the tool catalog are a
 * sizeable part of the modules `serve` loads, and nothing before listening needs them,
 * so the app mounts this stand-in and the server loads the real handler after it
 * listens (`loadMcpHandler`). A request that arrives first waits for the same load.
 * The handler is built once, with the options given here; a failed load is passed to
 * the error handler (a 500), and the next request tries again.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { McpHandlerOptions } from './handler.js';

/** The stand-in handler, and `load` to build the real one ahead of the first request. */
export interface LazyMcpHandler {
  readonly handler: RequestHandler;
  load(): Promise<RequestHandler>;
}

export function lazyMcpHandler(options: McpHandlerOptions): LazyMcpHandler {
  let loading: Promise<RequestHandler> | undefined;
  const load = (): Promise<RequestHandler> => {
    loading ??= import('./handler.js').then(({ createMcpHandler }) => createMcpHandler(options));
    loading.catch(() => {
      loading = undefined;
    });
    return loading;
  };
  const handler = (req: Request, res: Response, next: NextFunction): void => {
    load().then((real) => real(req, res, next), next);
  };
  return { handler, load };
}
