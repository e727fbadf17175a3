/**
 * A loopback HTTP load balancer that behaves like the path from a Service to its pods
 * during a rollout: it probes each backend's `GET /readyz` (like the kubelet's readiness
 * probe feeding the EndpointSlice) and sends new requests, round robin over keep-alive
 * connections (like a gateway's connection pool), only to backends that are ready. As the
 * kubelet does (failureThreshold 3, successThreshold 1), one answered probe makes a backend
 * ready, and three failed ones in a row unready (a non-200 or a probe that timed out) or gone
 * (the connection refused), so one slow probe on a busy machine changes nothing. A backend
 * that fails its probes keeps its connections and the requests already on them; it just gets
 * no new ones.
 *
 * A request no backend answers is answered 502 here and counted as a failure, with the
 * error the connection to the backend ended with.
 */
import { Agent, createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Backend {
  readonly url: string;
  ready: boolean;
  /** Requests this backend answered. */
  answered: number;
  /** Every readiness change this balancer saw, in order (`ready`, `unready`, `gone`). */
  readonly transitions: string[];
}

export interface Balancer {
  readonly url: string;
  readonly backends: readonly Backend[];
  /** Requests that reached no backend, with the reason. */
  readonly failures: string[];
  /** Start probing `url` and send it requests once it is ready. */
  add(url: string): Backend;
  close(): Promise<void>;
}

/** Failed probes in a row that take a backend out of rotation (the kubelet's default). */
const FAILURE_THRESHOLD = 3;

/** Start the balancer; `probeMs` is the readiness probe period. */
export async function startBalancer(probeMs = 50): Promise<Balancer> {
  const backends: Array<Backend & { agent: Agent; probing: boolean; failures: number }> = [];
  const failures: string[] = [];
  let next = 0;

  const pick = () => {
    const ready = backends.filter((b) => b.ready);
    if (ready.length === 0) return undefined;
    return ready[next++ % ready.length];
  };

  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const backend = pick();
    if (!backend) {
      failures.push(`${req.method} ${req.url}: no ready backend`);
      res.writeHead(502).end('no ready backend');
      return;
    }
    const target = new URL(backend.url);
    const upstream = request({
      host: target.hostname, port: target.port, method: req.method, path: req.url, agent: backend.agent,
      headers: { ...req.headers, host: target.host, connection: 'keep-alive' },
    }, (answer) => {
      // Hop-by-hop: the backend's Connection header concerns our pooled connection, not the client's.
      const { connection: _c, 'keep-alive': _k, ...headers } = answer.headers;
      res.writeHead(answer.statusCode ?? 502, headers);
      answer.pipe(res);
      answer.on('end', () => { backend.answered++; });
    });
    upstream.on('error', (err: NodeJS.ErrnoException) => {
      failures.push(`${req.method} ${req.url} → ${backend.url}: ${err.code ?? err.message}`);
      if (!res.headersSent) res.writeHead(502).end(`upstream ${err.code ?? err.message}`);
      else res.destroy();
    });
    upstream.end(body);
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => forward(req, res, Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const probe = async (backend: (typeof backends)[number]) => {
    const status = await new Promise<string>((resolve) => {
      const target = new URL(backend.url);
      // A fresh connection per probe, as the kubelet makes.
      let timedOut = false;
      request({ host: target.hostname, port: target.port, path: '/readyz', agent: false, timeout: 1_000 }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode === 200 ? 'ready' : 'unready'));
      }).on('error', () => resolve(timedOut ? 'unready' : 'gone')).on('timeout', function (this: { destroy(): void }) {
        timedOut = true;
        this.destroy();
      }).end();
    });
    backend.failures = status === 'ready' ? 0 : backend.failures + 1;
    if (status !== 'ready' && backend.failures < FAILURE_THRESHOLD) return;
    if (backend.transitions.at(-1) !== status) backend.transitions.push(status);
    backend.ready = status === 'ready';
  };
  const timer = setInterval(() => {
    for (const backend of backends) {
      if (backend.probing) continue;
      backend.probing = true;
      void probe(backend).finally(() => { backend.probing = false; });
    }
  }, probeMs);

  return {
    url: `http://127.0.0.1:${port}`,
    backends,
    failures,
    add: (url) => {
      const backend = {
        url, ready: false, answered: 0, transitions: [], agent: new Agent({ keepAlive: true, maxSockets: 16 }),
        probing: false, failures: 0,
      };
      backends.push(backend);
      return backend;
    },
    close: async () => {
      clearInterval(timer);
      for (const backend of backends) backend.agent.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
