import { connect, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../app.js';
import { silentLogger } from '../../log/logger.js';
import { FakeService } from '../../../test/support/transport/fake-service.js';
import { serveHandler, type ServedHandler } from '../../../test/support/transport/serve-handler.js';

/** Both surfaces' body limit (1 MiB), and what the server may read past it: one socket read. */
const LIMIT = 1 << 20;
const SLACK = 64 * 1024;
/** The chunk framing (`10000\r\n…\r\n`) of the chunks that fit in LIMIT + SLACK, besides the body's bytes. */
const FRAMING = 18 * 9;
/** Far over the limit: what a client would push if the server kept reading. */
const HUGE = 64 * LIMIT;

let served: ServedHandler | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

interface Outcome {
  /** What the client received (the response's head and body). */
  answer: string;
  /** Bytes the server read from the connection, request head included. */
  serverRead: number;
  /** The request head's bytes. */
  head: number;
}

/**
 * Sends `head` then body bytes from `chunk()` until the server closes the connection, as fast as
 * the connection takes them; resolves once both ends are closed.
 */
async function push(head: string, chunk: () => Buffer): Promise<Outcome> {
  served = await serveHandler(createApp({ service: new FakeService(), log: silentLogger(), version: '1.2.3' }));
  const serverSockets: Socket[] = [];
  served.server.on('connection', (s: Socket) => serverSockets.push(s));
  const socket = connect(Number(new URL(served.url).port), '127.0.0.1');
  const received: Buffer[] = [];
  socket.on('data', (c: Buffer) => received.push(c));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  let open = true;
  socket.once('end', () => { open = false; });
  socket.once('close', () => { open = false; });
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  socket.write(head);
  let sent = 0;
  while (open && sent < HUGE) {
    const part = chunk();
    sent += part.length;
    if (!socket.write(part)) {
      await new Promise<void>((resolve) => {
        socket.once('drain', resolve);
        socket.once('close', resolve);
        socket.once('end', resolve);
      });
    }
  }
  socket.end();
  await closed;
  const server = serverSockets[0]!;
  if (!server.destroyed) await new Promise<void>((resolve) => server.once('close', () => resolve()));
  return { answer: Buffer.concat(received).toString('latin1'), serverRead: server.bytesRead, head: Buffer.byteLength(head) };
}

const block = Buffer.alloc(64 * 1024, 'x');
const plain = (): Buffer => block;
const chunked = (): Buffer => Buffer.concat([Buffer.from(`${block.length.toString(16)}\r\n`), block, Buffer.from('\r\n')]);
/** A gzip stream of zeros, about 8 KiB that decompress to 8 MiB; sent over and over (gzip members in a row). */
const bomb = gzipSync(Buffer.alloc(8 * LIMIT), { level: 9 });
let bombAt = 0;
const bombPart = (): Buffer => {
  const part = bomb.subarray(bombAt, bombAt + block.length);
  bombAt = (bombAt + block.length) % bomb.length;
  return part.length > 0 ? part : bomb.subarray(0, block.length);
};

const request = (method: string, path: string, framing: string, extra = 'Content-Type: application/json\r\n'): string =>
  `${method} ${path} HTTP/1.1\r\nHost: x\r\nAccept: application/json, text/event-stream\r\n${framing}\r\n${extra}\r\n`;
const gzipped = 'Content-Type: application/json\r\nContent-Encoding: gzip\r\n';
const declared = `Content-Length: ${HUGE}`;
const streamed = 'Transfer-Encoding: chunked';

describe('a body over the limit is refused without being read', () => {
  it.each([
    ['REST, its length declared', request('POST', '/api/v1/agents', declared), plain, 413],
    ['REST, chunked', request('POST', '/api/v1/agents', streamed), chunked, 413],
    ['REST, a gzip bomb', request('POST', '/api/v1/agents', streamed, gzipped), () => chunkedOf(bombPart()), 413],
    ['REST, not JSON', request('POST', '/api/v1/agents', declared, 'Content-Type: text/plain\r\n'), plain, 415],
    ['MCP, its length declared', request('POST', '/mcp', declared), plain, 413],
    ['MCP, chunked', request('POST', '/mcp', streamed), chunked, 413],
    ['MCP, a gzip bomb', request('POST', '/mcp', streamed, gzipped), () => chunkedOf(bombPart()), 413],
    ['MCP, not JSON', request('POST', '/mcp', streamed, 'Content-Type: text/plain\r\n'), chunked, 415],
  ])('%s: answered at once, the connection closed, at most one socket read past the limit', async (_name, head, chunk, status) => {
    bombAt = 0;
    const outcome = await push(head, chunk);
    expect(outcome.answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    expect(outcome.answer).toMatch(/\r\nConnection: close\r\n/i);
    // The request head and the chunk framing aside.
    expect(outcome.serverRead - outcome.head - FRAMING).toBeLessThanOrEqual(LIMIT + SLACK);
  });
});

function chunkedOf(part: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]);
}
