/**
 * A loopback HTTP proxy in front of the real test registry whose behaviour can be
 * switched while clients use it, so a chart resolver pointed at it (one fixed URL) sees
 * the registry go down, hang, talk nonsense and come back:
 *
 * - `healthy`: every request is forwarded to the registry;
 * - `down`: every connection is reset without an answer (what a resolver sees of a
 *   stopped registry or a broken network path);
 * - `slow`: requests are held without an answer until the client gives up or the mode
 *   changes;
 * - `garbage`: every request is answered 200 with random bytes claiming to be JSON;
 * - `garbage-blobs`: tags and manifests are forwarded, blobs are random bytes (the
 *   digest no longer matches).
 */
import { randomBytes } from 'node:crypto';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ProxyMode = 'healthy' | 'down' | 'slow' | 'garbage' | 'garbage-blobs';

export interface RegistryProxy {
  /** `oci://127.0.0.1:<port>/<repository>` through the proxy. */
  ociUrl(repository: string): string;
  mode: ProxyMode;
  /** Requests seen per mode. */
  readonly seen: Record<ProxyMode, number>;
  close(): Promise<void>;
}

/** Start a proxy to `upstream` (`http://127.0.0.1:<port>`), in `healthy` mode. */
export async function startRegistryProxy(upstream: string): Promise<RegistryProxy> {
  const target = new URL(upstream);
  const held = new Set<ServerResponse>();
  const seen: Record<ProxyMode, number> = { healthy: 0, down: 0, slow: 0, garbage: 0, 'garbage-blobs': 0 };
  let mode: ProxyMode = 'healthy';

  const forward = (req: IncomingMessage, res: ServerResponse): void => {
    const upstreamReq = request({
      host: target.hostname, port: target.port, method: req.method, path: req.url,
      headers: { ...req.headers, host: target.host },
    }, (upstreamRes) => {
      res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
      upstreamRes.pipe(res);
    });
    upstreamReq.on('error', () => res.destroy());
    req.pipe(upstreamReq);
  };
  const garbage = (res: ServerResponse): void => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(randomBytes(512));
  };

  const server: Server = createServer((req, res) => {
    seen[mode]++;
    switch (mode) {
      case 'healthy':
        return forward(req, res);
      case 'down':
        return req.socket.destroy();
      case 'slow':
        held.add(res);
        res.once('close', () => held.delete(res));
        return;
      case 'garbage':
        return garbage(res);
      case 'garbage-blobs':
        return /\/blobs\/sha256:/.test(req.url ?? '') ? garbage(res) : forward(req, res);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    ociUrl: (repository) => `oci://127.0.0.1:${port}/${repository}`,
    get mode() {
      return mode;
    },
    set mode(next: ProxyMode) {
      mode = next;
      // Whatever was held while slow is let go (as a reset) once the registry "recovers".
      if (next !== 'slow') for (const res of held) res.destroy();
    },
    seen,
    close: () => new Promise<void>((resolve) => {
      for (const res of held) res.destroy();
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
