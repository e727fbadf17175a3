/**
 * serveMcp serves the app behind the production listener, whose idle keep-alive (IDLE_TIMEOUT_MS)
 * outlasts any stall of the test process. Behind a bare Node server (5 s) a suite that held the event
 * loop longer had its MCP client write into a connection the server was closing: `fetch failed`.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDLE_TIMEOUT_MS } from '../../src/transport/http/http-server.js';
import { serveMcp, type ServedMcp } from './served-mcp.js';

let served: ServedMcp;

beforeAll(async () => {
  served = await serveMcp('served-mcp-test');
});
afterAll(async () => {
  await served?.close();
});

/** The `Keep-Alive` header of an answer to a keep-alive GET of `url`. */
function keepAliveOf(url: string): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { connection: 'keep-alive' } }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.headers['keep-alive']?.toString()));
    });
    req.once('error', reject);
    req.end();
  });
}

describe('serveMcp', () => {
  it('keeps an idle connection as long as the production listener does', async () => {
    expect(await keepAliveOf(served.url)).toBe(`timeout=${IDLE_TIMEOUT_MS / 1000}`);
  });
});
