import { request, Agent, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, MAX_HEADER_BYTES, type RunningServer } from './http-server.js';

let served: RunningServer;
beforeAll(async () => {
  served = await startHttpServer((_req, res) => res.end('ok'), '127.0.0.1:0');
});
afterAll(async () => {
  await served.close(100);
});

/** One PATCH with a body on a keep-alive agent; resolves with the answer or the socket error. */
function patch(path: string, agent: Agent): Promise<{ status?: number; body?: string; error?: string }> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port: served.address.port, path, method: 'PATCH', agent, headers: { 'content-type': 'application/json' } },
      (res: IncomingMessage) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => { body += chunk; });
        res.on('end', () => resolve({ status: res.statusCode, body }));
      });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code }));
    req.end(JSON.stringify({ description: 'x' }));
  });
}

describe('requests the HTTP parser refuses', () => {
  it('answers a request head over the limit with a readable 431 naming the limit, every time, instead of a reset', async () => {
    const agent = new Agent({ keepAlive: true });
    const answers = [];
    for (let i = 0; i < 20; i += 1) {
      // Every other one on a connection a good request was answered on first.
      if (i % 2 === 0) expect(await patch('/api/v1/agents/kagent/a', agent)).toEqual({ status: 200, body: 'ok' });
      answers.push(await patch(`/api/v1/agents/kagent/a${'b'.repeat(MAX_HEADER_BYTES + i * 4096)}`, agent));
    }
    agent.destroy();
    for (const answer of answers) {
      expect(answer.status).toBe(431);
      expect(JSON.parse(answer.body!)).toEqual({
        error: { code: 'invalid_request', message: 'the request line and headers are larger than 32 KiB; shorten the URL or the headers' },
      });
    }
  });

  it('answers malformed HTTP with a 400 and closes the connection', async () => {
    const socket = connect(served.address.port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => { text += chunk; });
    socket.write('NOT HTTP AT ALL\r\n\r\n');
    await new Promise((resolve) => socket.on('close', resolve));
    expect(text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(text).toContain('Connection: close');
    expect(text).toContain('"message": "the request is not valid HTTP/1.1; check the request line, the headers and the body framing"');
  });

  it('still serves a valid request on a new connection afterwards', async () => {
    const agent = new Agent();
    expect(await patch('/api/v1/agents/kagent/a', agent)).toEqual({ status: 200, body: 'ok' });
    agent.destroy();
  });
});
