/**
 * `agent-manager serve`, first version: one HTTP listener answering the health probes,
 * the startup log lines, and a graceful shutdown on SIGTERM or SIGINT. The full app
 * (REST, MCP, OAuth) replaces the body of `runServe` later.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildInfo, parseListenAddress, redactedSummary, type AppConfig } from './config/index.js';
import type { Logger } from './log/logger.js';

/** How long in-flight requests get to finish once a signal arrives. */
const SHUTDOWN_GRACE_MS = 15_000;

/** Options for tests: a signal source other than the process, and a hook once listening. */
export interface ServeOptions {
  /** Resolves when the server should stop; default: the first SIGTERM or SIGINT. */
  readonly stop?: Promise<unknown>;
  /** Called with the bound address once the server listens. */
  readonly onListening?: (address: AddressInfo) => void;
}

/** Serve until SIGTERM/SIGINT (or `options.stop`), then close within 15 s. */
export async function runServe(config: AppConfig, log: Logger, options: ServeOptions = {}): Promise<void> {
  const info = buildInfo(process.env);
  log.info({ version: info.version, commit: info.commit, ...redactedSummary(config) }, 'agent-manager starting');
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if ((req.method === 'GET' || req.method === 'HEAD') && (path === '/healthz' || path === '/readyz')) {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('ok');
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found');
  });
  // As the Go server: headers within 10 s, idle keep-alive 120 s, no overall request timeout (MCP streams).
  server.headersTimeout = 10_000;
  server.keepAliveTimeout = 120_000;
  server.requestTimeout = 0;

  const address = await listen(server, config.listen);
  log.info({ address: `${address.address}:${address.port}` }, 'listening');
  options.onListening?.(address);

  await (options.stop ?? nextSignal());
  log.info('shutting down');
  await close(server);
  log.info('server stopped');
}

function listen(server: Server, text: string): Promise<AddressInfo> {
  const { host, port } = parseListenAddress(text);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/** Stop accepting, let in-flight requests finish, and cut what is left after the grace period. */
function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}

function nextSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals): void => {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
      resolve(signal);
    };
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
  });
}
