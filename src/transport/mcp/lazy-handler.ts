/**
 * The MCP path's handler, loaded on first use: the MCP SDK and the tool catalog are a
 * sizeable part of the modules `serve` loads, and nothing before listening needs them,
 * so the app mounts this stand-in and the server loads the real handler after it
 * listens (`loadMcpHandler`). A request that arrives first waits for the same load.
 * The handler is built once, with the options given here; a failed load rejects the
 * request's promise (the app's error handler answers it, a 500), and the next request tries again.
 */
import type { Handler, HttpRequest, HttpResponse } from '../http/exchange.js';
import type { McpHandlerOptions } from './handler.js';

/** The stand-in handler, and `load` to build the real one ahead of the first request. */
export interface LazyMcpHandler {
  readonly handler: Handler;
  load(): Promise<Handler>;
}

export function lazyMcpHandler(options: McpHandlerOptions): LazyMcpHandler {
  let loading: Promise<Handler> | undefined;
  const load = (): Promise<Handler> => {
    loading ??= import('./handler.js').then(({ createMcpHandler }) => createMcpHandler(options));
    loading.catch(() => {
      loading = undefined;
    });
    return loading;
  };
  const handler = async (req: HttpRequest, res: HttpResponse): Promise<void> => {
    const real = await load();
    await real(req, res);
  };
  return { handler, load };
}
