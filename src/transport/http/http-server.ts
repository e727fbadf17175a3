/**
 * The HTTP listeners' hygiene in one place: headers within 10 s (slow-loris, checked every second),
 * idle keep-alive closed after 120 s, request headers up to 32 KiB (an id_token may be 16 KiB and an
 * oversized Authorization must reach the bearer guard's 401), the whole request within 30 s (408), and
 * no response timeout, so a long SSE stream or tool call is never cut. Shutdown: `stopKeepAlive()`
 * during `--shutdown-delay` (answers say `Connection: close`, so pooled clients move), then a graceful
 * close that cuts what is left after `--shutdown-timeout` (docs/operations.md "Listeners").
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseListenAddress } from '../../config/index.js';
import { answerClientErrors } from './client-error.js';
import { asListenError } from './listen-error.js';

export const HEADERS_TIMEOUT_MS = 10_000;
/** The time to receive a whole request, headers and body. */
export const REQUEST_TIMEOUT_MS = 30_000;
export const IDLE_TIMEOUT_MS = 120_000;
export const SHUTDOWN_GRACE_MS = 15_000;
/** The largest request head accepted, in bytes. */
export const MAX_HEADER_BYTES = 32 * 1024;

/** A listening server. */
export interface RunningServer {
  readonly server: Server;
  readonly address: AddressInfo;
  /** `http://host:port`, with a loopback host when bound to every interface. */
  readonly url: string;
  /** From now on every answer carries `Connection: close` (the server keeps accepting). */
  stopKeepAlive(): void;
  /** Graceful close; resolves when every connection is gone (at the latest after `graceMs`). */
  close(graceMs?: number): Promise<void>;
}

export interface ServerTimeouts {
  /** The time to receive a whole request (default REQUEST_TIMEOUT_MS); the headers' limit never exceeds it. */
  requestTimeoutMs?: number;
}

/**
 * Create a server with the timeouts above and listen on `listen` (`host:port`, `:port`).
 * A bind failure rejects with a ListenError naming `flag`, the option that sets `listen`.
 */
export async function startHttpServer(
  handler: RequestListener, listen: string, flag = '--listen', timeouts: ServerTimeouts = {},
): Promise<RunningServer> {
  const requestTimeout = timeouts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const server = createServer(
    {
      headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeout),
      requestTimeout,
      keepAliveTimeout: IDLE_TIMEOUT_MS,
      connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(requestTimeout / 10))),
      maxHeaderSize: MAX_HEADER_BYTES,
    },
    handler,
  );
  answerClientErrors(server, MAX_HEADER_BYTES);
  const address = await listenOn(server, listen).catch((err: unknown) => {
    throw asListenError(err, flag, listen);
  });
  return {
    server, address, url: urlOf(address),
    stopKeepAlive: () => stopKeepAlive(server),
    close: (graceMs = SHUTDOWN_GRACE_MS) => closeGracefully(server, graceMs),
  };
}

const closing = new WeakSet<Server>();

/**
 * Every answer from now on tells its client to close the connection, so a busy
 * keep-alive client cannot keep the server's connections (or a drain) going with
 * request after request. Idempotent.
 */
export function stopKeepAlive(server: Server): void {
  if (closing.has(server)) return;
  closing.add(server);
  server.prependListener('request', (_req, res) => {
    res.shouldKeepAlive = false;
    res.setHeader('Connection', 'close');
  });
}

function listenOn(server: Server, text: string): Promise<AddressInfo> {
  const { host, port } = parseListenAddress(text);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      // A TCP listener's address is an AddressInfo (a string only for a pipe, null only when closed).
      if (address === null || typeof address === 'string') reject(new Error(`${text}: not listening on TCP`));
      else resolve(address);
    });
  });
}

/** `host:port` of a bound address, IPv6 hosts in brackets (`[::]:8080`). */
export function hostPort(address: AddressInfo): string {
  return `${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}`;
}

function urlOf(address: AddressInfo): string {
  const unspecified = address.address === '::' || address.address === '0.0.0.0';
  const host = unspecified ? '127.0.0.1' : address.address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}

/**
 * Stop accepting, let in-flight requests finish and close each connection once it is
 * idle; after `graceMs` close everything still open.
 */
export function closeGracefully(server: Server, graceMs: number): Promise<void> {
  if (!server.listening) return Promise.resolve();
  return new Promise((resolve) => {
    stopKeepAlive(server);
    // A keep-alive connection whose request finishes after close() would otherwise sit
    // idle until its keep-alive timeout: sweep idle connections until all are gone.
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    const force = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}
