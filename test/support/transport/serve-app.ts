/**
 * The production HTTP app on loopback behind the production listener (startHttpServer: `serve`'s
 * timeouts, idle keep-alive kept IDLE_TIMEOUT_MS), not a bare Node server. A bare one closes an idle
 * keep-alive connection after Node's 5 s; a test that holds the event loop that long (a busy machine,
 * a synchronous check) then has its pooled client write into a connection the server is closing in
 * the same turn, and the call fails `fetch failed` / ECONNRESET: a race no deployed client meets.
 */
import type { RequestListener, Server } from 'node:http';
import { startHttpServer } from '../../../src/transport/http/http-server.js';

export interface ServedApp {
  /** `http://127.0.0.1:<port>` */
  url: string;
  server: Server;
  /** Ends every connection at once and stops listening. */
  close(): Promise<void>;
}

/** Serves `app` on 127.0.0.1 and a port the system picks until closed. */
export async function serveApp(app: RequestListener): Promise<ServedApp> {
  const running = await startHttpServer(app, '127.0.0.1:0');
  const { server } = running;
  return {
    url: running.url, server,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
