import { request } from 'node:http';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { FakeService } from '../../../test/support/transport/fake-service.js';
import { eventually } from '../../../test/support/eventually.js';
import { serveHandler } from '../../../test/support/transport/serve-handler.js';
import { contentTypeProblem, parseJsonBody, readRawBody } from './json-body.js';
import { serveRouterPerFile } from '../../../test/support/transport/serve-router.js';

const service = new FakeService();
const api = serveRouterPerFile(service);

const CREATE = JSON.stringify({ name: 'sre', modelConfig: 'default-model-config', toolset: ['preset:read-only'] });

/** A raw request (fetch would add `text/plain` to a body sent without a Content-Type). */
function send(method: string, path: string, body: Buffer | string, headers: Record<string, string>) {
  return new Promise<{
    status: number;
    headers: Record<string, unknown>;
    body: { error?: { code: string; message: string } };
  }>((resolve, reject) => {
    const req = request(
      `${api.base}${path}`, { method, headers: { 'content-length': String(Buffer.byteLength(body)), ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0, headers: res.headers,
            body: JSON.parse(Buffer.concat(chunks).toString()) as never,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('REST body media type', () => {
  it('reads a body without a Content-Type header as JSON', async () => {
    const res = await send('POST', '/agents', CREATE, {});
    expect(res.status).toBe(201);
  });

  it.each([
    ['application/json'], ['application/json; charset=utf-8'], ['Application/JSON;charset="UTF-8"'],
  ])('reads a body sent as %s', async (type) => {
    const res = await send('POST', '/agents', CREATE, { 'content-type': type });
    expect(res.status).toBe(201);
  });

  it.each([
    ['text/plain', 'POST', '/agents'],
    ['application/x-www-form-urlencoded', 'POST', '/agents/validate'],
    ['multipart/form-data; boundary=x', 'POST', '/agents/kagent/sre/rollback'],
    ['application/merge-patch+json', 'PATCH', '/agents/kagent/sre'],
  ])('refuses a body sent as %s with 415, before reading it or calling the service', async (type, method, path) => {
    const res = await send(method, path, CREATE, { 'content-type': type });
    expect(res.status).toBe(415);
    expect(res.body.error).toEqual({
      code: 'invalid_request',
      message: `invalid request: the body must be JSON sent as Content-Type: application/json, not ${JSON.stringify(type)}`,
    });
    expect(service.calls).toEqual([]);
  });

  it('names application/json in Accept-Patch when a PATCH body has another type (RFC 5789)', async () => {
    const res = await send('PATCH', '/agents/kagent/sre', '{}', { 'content-type': 'application/json-patch+json' });
    expect(res.status).toBe(415);
    expect(res.headers['accept-patch']).toBe('application/json');
  });

  it('refuses a charset other than UTF-8, which JSON must be in', async () => {
    const res = await send('POST', '/agents', CREATE, { 'content-type': 'application/json; charset=iso-8859-1' });
    expect(res.status).toBe(415);
    expect(res.body.error?.message).toContain('a JSON body is UTF-8 (RFC 8259)');
  });

  it('refuses a content coding it cannot undo with 415 and Accept-Encoding, and reads a gzip body', async () => {
    const refused = await send('POST', '/agents', CREATE, { 'content-type': 'application/json', 'content-encoding': 'compress' });
    expect(refused.status).toBe(415);
    expect(refused.body.error?.message).toMatch(/^invalid request: the content coding "compress" is not supported; send the body uncompressed or as gzip, deflate, br/);
    expect(String(refused.headers['accept-encoding'])).toMatch(/^gzip, deflate, br/);
    const gzipped = await send('POST', '/agents', gzipSync(CREATE), { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    expect(gzipped.status).toBe(201);
  });

  it('says what a Content-Type that is not a media type is', () => {
    expect(contentTypeProblem('json')).toBe('the Content-Type "json" is not a media type; send the body as Content-Type: application/json');
    expect(contentTypeProblem(undefined)).toBeUndefined();
  });
});

describe('reading a compressed body from a client that goes away', () => {
  it('ends the read with an error instead of waiting for a body that never ends', async () => {
    const outcomes: string[] = [];
    let reading = false;
    const served = await serveHandler(async (req, res) => {
      reading = true;
      try {
        await readRawBody(req, res);
        outcomes.push('read');
      } catch (err) {
        outcomes.push(err instanceof Error ? err.message : String(err));
      }
      if (!res.destroyed) res.end();
    });
    try {
      const half = gzipSync(Buffer.from(CREATE.repeat(200))).subarray(0, 200);
      const socket = connect(Number(new URL(served.url).port), '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', resolve));
      socket.write('POST /api/v1/agents HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n'
        + 'Content-Encoding: gzip\r\nContent-Length: 100000\r\n\r\n');
      socket.write(half);
      await eventually(() => (reading ? true : undefined), 5_000, 'the read to start');
      socket.destroy();
      const outcome = await eventually(() => outcomes[0], 5_000, 'the read to end');
      expect(outcome).toMatch(/^invalid request: read body: the client closed the connection before the body ended/);
    } finally {
      await served.close();
    }
  });
});

describe('a body that is not UTF-8', () => {
  it('is refused, not read with its bytes replaced', () => {
    const body = Buffer.concat([Buffer.from('{"description":"A'), Buffer.from([0xff, 0xfe]), Buffer.from('B"}')]);
    expect(() => parseJsonBody(body)).toThrow('invalid JSON: the body is not UTF-8 (RFC 8259 §8.1); send the JSON text encoded as UTF-8');
    expect(parseJsonBody(Buffer.from('{"description":"Grüße"}'))).toEqual({ description: 'Grüße' });
  });
});
