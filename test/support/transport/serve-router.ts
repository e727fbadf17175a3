/**
 * The REST router on a loopback listener for tests: the router at /api/v1 (after the
 * given steps, in an express app of its own) on 127.0.0.1 and a random port, plus a logger whose lines are kept for
 * assertions. Close it in afterAll/afterEach, or let `serveRouterPerFile` do the hooks.
 */
import { pino, type Logger } from 'pino';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { OperationService } from '../../../src/transport/operations.js';
import express from 'express';
import type { Step } from '../../../src/transport/http/exchange.js';
import { middleware } from '../../../src/transport/http/express-step.js';
import { serveListener } from './serve-handler.js';
import { createRestRouter, restCacheHeaders } from '../../../src/transport/rest/router.js';

export interface ServedRouter {
  /** `http://127.0.0.1:<port>/api/v1` */
  base: string;
  /** Every log line written, parsed. */
  logs: Record<string, unknown>[];
  close(): Promise<void>;
}

export interface ServeOptions {
  /** Steps run before the router (e.g. one that sets `req.ctx`). */
  before?: Step[];
  openapiPath?: string;
}

/** A logger that keeps its lines in `lines` (debug level and up). */
export function capturingLogger(): { log: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const log = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { log, lines };
}

/** Starts the router over `service`. */
export async function serveRouter(service: OperationService, options: ServeOptions = {}): Promise<ServedRouter> {
  const { log, lines } = capturingLogger();
  const router = createRestRouter({ service, log, openapiPath: options.openapiPath });
  const app = express();
  app.disable('x-powered-by');
  app.use([restCacheHeaders, ...options.before ?? []].map(middleware), router);
  const served = await serveListener(app);
  return { base: `${served.url}/api/v1`, logs: lines, close: () => served.close() };
}

/**
 * The router over a FakeService for all tests of one file: started before them, closed
 * after them, and the service's calls and the log lines cleared before each, so no test
 * sees another's. Read `base` and `logs` inside the tests (they exist once started).
 */
export function serveRouterPerFile(
  service: OperationService & { calls: unknown[] }, options: ServeOptions = {},
): ServedRouter {
  let served: ServedRouter | undefined;
  const started = (): ServedRouter => {
    if (!served) throw new Error('the router is served from beforeAll on; read it inside a test');
    return served;
  };
  beforeAll(async () => {
    served = await serveRouter(service, options);
  });
  afterAll(() => served?.close());
  beforeEach(() => {
    service.calls.length = 0;
    if (served) served.logs.length = 0;
  });
  return {
    get base() {
      return started().base;
    },
    get logs() {
      return started().logs;
    },
    close: () => started().close(),
  };
}
