/**
 * A request listener on a loopback port for tests: 127.0.0.1 and a port the system picks, a
 * bare handler given the request prepared as express would (`path`, `query`), and a close that ends every
 * connection, so a test file leaves nothing listening.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpRequest, HttpResponse } from '../../../src/transport/http/exchange.js';
import { prepareRequest } from './steps.js';

export interface ServedHandler {
  /** `http://127.0.0.1:<port>` */
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** Serves `handler` (given the prepared request) until closed. */
export async function serveHandler(
  handler: (req: HttpRequest, res: HttpResponse) => unknown, options: { maxHeaderSize?: number } = {},
): Promise<ServedHandler> {
  return serveListener((req, res) => {
    Promise.resolve(handler(prepareRequest(req), res)).catch((err: unknown) => {
      if (!res.headersSent) {
        res.statusCode = 500;
        res.end(err instanceof Error ? err.message : String(err));
      } else res.destroy();
    });
  }, options);
}

/** Serves a request listener as it is (an express app) until closed. */
export async function serveListener(
  listener: RequestListener, options: { maxHeaderSize?: number } = {},
): Promise<ServedHandler> {
  const server = createServer({ maxHeaderSize: options.maxHeaderSize }, listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () => new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((err) => (err ? reject(err) : resolve()));
    }),
  };
}
