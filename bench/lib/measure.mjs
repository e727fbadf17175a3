// One timed run with autocannon (its client work in worker threads, so it does not share
// the event loop of the server under test), and the floor: a bare node:http server that
// answers every request with a fixed response, the same status, type and bytes as the
// real one, so the floor is the cost of HTTP and of moving those bytes, nothing else. For
// `/info` a second floor: a minimal express 5 app answering the same bytes from one route,
// the cost of the framework our app runs on (its request and response prototypes, its router).
import { createServer } from 'node:http';
import autocannon from 'autocannon';
import express from 'express';

/**
 * Run one case for `seconds` with `connections`; returns requests/s, p50/p99 (ms), the
 * completed requests and the failures.
 */
export function runCase({ url, method = 'GET', path, body, headers = {}, setupRequest, tls, seconds, connections, workers = 2 }) {
  return new Promise((resolve, reject) => {
    autocannon({
      url: `${url}${path}`,
      method,
      connections,
      duration: seconds,
      workers,
      headers: { ...(body !== undefined || setupRequest ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body } : {}),
      ...(setupRequest ? { requests: [{ method, path, setupRequest }] } : {}),
      ...(tls ? { tlsOptions: { ca: tls.ca } } : {}),
    }, (err, result) => {
      if (err) return reject(err);
      resolve({
        rps: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        requests: result.requests.total,
        non2xx: result.non2xx,
        errors: result.errors + result.timeouts,
      });
    });
  });
}

/** A bare server answering `response` ({ status, type, body }) to everything. */
export async function startFloor(response) {
  const bytes = Buffer.from(response.body);
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(response.status, { 'content-type': response.type, 'content-length': bytes.length });
      res.end(bytes);
    });
  });
  return listening(server);
}

/** `server` listening on a loopback port: its URL, and how to close it with its connections. */
async function listening(server) {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((resolve) => {
      server.close(resolve);
      server.closeAllConnections();
    }),
  };
}

/** A minimal express 5 app answering `response` on `path` (GET), as our app's settings have it. */
export async function startExpressFloor(response, path) {
  const bytes = Buffer.from(response.body);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.get(path, (_req, res) => {
    res.writeHead(response.status, { 'content-type': response.type, 'content-length': bytes.length });
    res.end(bytes);
  });
  const server = createServer(app);
  return listening(server);
}

/** One request with fetch: status, content type and body, to check a case and feed its floor. */
export async function probe(url, { method = 'GET', path, body, headers = {} }) {
  const res = await fetch(`${url}${path}`, {
    method, body, headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
  });
  return { status: res.status, type: res.headers.get('content-type') ?? 'application/json', body: await res.text() };
}
