import { connect } from 'node:net';
import { Agent, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { HEADERS_TIMEOUT_MS, hostPort, IDLE_TIMEOUT_MS, REQUEST_TIMEOUT_MS, startHttpServer, type RunningServer } from './http-server.js';

describe('hostPort', () => {
  it.each([
    [{ address: '127.0.0.1', family: 'IPv4', port: 8080 }, '127.0.0.1:8080'],
    [{ address: '::', family: 'IPv6', port: 8080 }, '[::]:8080'],
  ])('renders %j as %s', (address, text) => {
    expect(hostPort(address)).toBe(text);
  });
});

describe('startHttpServer', () => {
  let running: RunningServer | undefined;

  afterEach(async () => {
    await running?.close(0);
    running = undefined;
  });

  it('sets the timeouts: 10 s for headers, 30 s to receive the whole request, 120 s idle', async () => {
    running = await startHttpServer((_req, res) => res.end('ok'), '127.0.0.1:0');
    expect(running.server.headersTimeout).toBe(HEADERS_TIMEOUT_MS);
    expect(HEADERS_TIMEOUT_MS).toBe(10_000);
    expect(running.server.keepAliveTimeout).toBe(IDLE_TIMEOUT_MS);
    expect(IDLE_TIMEOUT_MS).toBe(120_000);
    expect(running.server.requestTimeout).toBe(REQUEST_TIMEOUT_MS);
    expect(REQUEST_TIMEOUT_MS).toBe(30_000);
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('lets an in-flight request finish after close and refuses new connections', async () => {
    let release!: () => void;
    let arrived!: () => void;
    const arrival = new Promise<void>((resolve) => { arrived = resolve; });
    running = await startHttpServer((_req, res) => {
      arrived();
      release = () => res.end('finished');
    }, '127.0.0.1:0');
    const base = running.url;
    const inFlight = fetch(`${base}/slow`).then((r) => r.text());
    await arrival;
    const closed = running.close();
    await expect(fetch(`${base}/new`)).rejects.toThrow();
    release();
    expect(await inFlight).toBe('finished');
    await closed;
    expect(running.server.listening).toBe(false);
  });

  it('closes idle keep-alive connections instead of waiting for their idle timeout', async () => {
    running = await startHttpServer((_req, res) => res.end('ok'), '127.0.0.1:0');
    const agent = new Agent({ keepAlive: true });
    await new Promise<void>((resolve, reject) => {
      request(`${running!.url}/`, { agent }, (res) => {
        res.resume();
        res.on('end', resolve);
      }).on('error', reject).end();
    });
    await running.close();
    agent.destroy();
    expect(running.server.listening).toBe(false);
  });

  it('answers requests that still arrive on an open connection after close with Connection: close', async () => {
    let release!: () => void;
    let arrived!: () => void;
    const arrival = new Promise<void>((resolve) => { arrived = resolve; });
    running = await startHttpServer((req, res) => {
      if (req.url === '/first') {
        arrived();
        release = () => res.end('first');
      } else {
        res.end('second');
      }
    }, '127.0.0.1:0');
    const socket = connect(running.address.port, '127.0.0.1');
    let received = '';
    const gotFirst = new Promise<void>((resolve) => socket.on('data', (chunk) => {
      received += String(chunk);
      if (received.includes('first')) resolve();
    }));
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    // A busy keep-alive client: its next request follows the answer to the previous one.
    socket.write('GET /first HTTP/1.1\r\nHost: x\r\n\r\n');
    await arrival;
    const closed = running.close();
    release();
    await gotFirst;
    socket.write('GET /second HTTP/1.1\r\nHost: x\r\n\r\n');
    await ended;
    await closed;
    const second = received.slice(received.indexOf('first') + 'first'.length);
    expect(second).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(second).toMatch(/connection: close/i);
    expect(second).toContain('second');
  });

  it('keeps accepting after stopKeepAlive, and answers every request with Connection: close', async () => {
    running = await startHttpServer((_req, res) => res.end('ok'), '127.0.0.1:0');
    const agent = new Agent({ keepAlive: true });
    const get = () => new Promise<string | undefined>((resolve, reject) => {
      request(`${running!.url}/`, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.headers.connection));
      }).on('error', reject).end();
    });
    expect(await get()).toBe('keep-alive');
    running.stopKeepAlive();
    running.stopKeepAlive();
    expect(await get()).toBe('close');
    expect(await get()).toBe('close');
    expect(running.server.listening).toBe(true);
    agent.destroy();
  });

  it('cuts a request that never finishes once the grace period is over', async () => {
    let arrived!: () => void;
    const arrival = new Promise<void>((resolve) => { arrived = resolve; });
    running = await startHttpServer(() => arrived(), '127.0.0.1:0');
    const hanging = fetch(`${running.url}/hang`).catch((err: unknown) => err);
    await arrival;
    await running.close(10);
    expect(await hanging).toBeInstanceOf(Error);
  });

  /** Reads the whole body, then answers, as express.json does before a route runs. */
  const readsBody = (then: (res: ServerResponse) => void) => (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => then(res));
  };

  it('cuts a request whose body trickles in past the request timeout with 408', async () => {
    running = await startHttpServer(readsBody((res) => res.end('ok')), '127.0.0.1:0', '--listen', { requestTimeoutMs: 200 });
    const socket = connect(running.address.port, '127.0.0.1');
    socket.write('POST /api/v1/agents HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n');
    let sent = 0;
    const trickle = setInterval(() => { if (!socket.destroyed && sent < 1000) { socket.write(' '); sent++; } }, 20);
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk: Buffer) => { text += chunk.toString(); });
      socket.on('close', () => resolve(text));
      socket.on('error', () => undefined);
    });
    clearInterval(trickle);
    expect(sent).toBeLessThan(1000);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('never cuts a response that outlasts the request timeout once the request is in (long MCP streams)', async () => {
    const chunks = 8;
    const streams = (res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let n = 0;
      const tick = setInterval(() => {
        res.write(`data: ${++n}\n\n`);
        if (n === chunks) { clearInterval(tick); res.end(); }
      }, 100); // 8 × 100 ms: four times the 200 ms request timeout, checked every 20 ms
    };
    running = await startHttpServer(readsBody(streams), '127.0.0.1:0', '--listen', { requestTimeoutMs: 200 });
    const events = (res: Response) => res.text().then((text) => text.match(/^data: /gm));
    const [post, get] = await Promise.all([
      fetch(`${running.url}/mcp`, { method: 'POST', body: '{"jsonrpc":"2.0","id":1,"method":"tools/call"}' }).then(events),
      fetch(`${running.url}/mcp`).then(events),
    ]);
    expect(post).toHaveLength(chunks);
    expect(get).toHaveLength(chunks);
  });
});
