/**
 * Progress of a quiet call over the wire: a wait whose agent does not change reports its
 * status once, and the handler repeats that message (with a growing progress) until the
 * call ends, so a client that resets its request timeout on progress keeps waiting.
 * The repeat interval is shortened here; the SDK client's own `onprogress` receives them.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WaitResult } from '../../core/types.js';
import type { RequestContext } from '../../identity/caller.js';
import { silentLogger } from '../../log/logger.js';
import { requestContext } from '../http/context.js';
import { serveHandler, type ServedHandler } from '../../../test/support/transport/serve-handler.js';
import { FakeService } from '../../../test/support/transport/fake-service.js';
import { createMcpHandler } from './handler.js';

/** A wait on an agent that never changes: one status, then nothing until the call is cancelled. */
class QuietWait extends FakeService {
  override async waitForAgent(ctx: RequestContext): Promise<WaitResult> {
    ctx.progress?.('1/1 pods not ready');
    await new Promise((resolve) => ctx.signal?.addEventListener('abort', resolve, { once: true }));
    throw new Error('the client went away');
  }
}

let served: ServedHandler | undefined;
let url: string;

beforeAll(async () => {
  const context = requestContext(silentLogger());
  const mcp = createMcpHandler({
    service: new QuietWait(), log: silentLogger(), version: 'test', progressHeartbeatMs: 20,
  });
  served = await serveHandler(async (req, res) => {
    await context(req, res);
    await mcp(req, res);
  });
  url = `${served.url}/mcp`;
});

afterAll(() => served?.close());

describe('progress of a quiet call', () => {
  it('repeats the last message with a growing progress while the call waits, until it is cancelled', async () => {
    const client = new Client({ name: 'heartbeat-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const stop = new AbortController();
    const progress: Progress[] = [];
    const call = client.callTool({ name: 'wait_for_agent', arguments: { name: 'sre', timeoutSeconds: 600 } }, undefined, {
      signal: stop.signal,
      onprogress: (p) => {
        progress.push(p);
        if (progress.length === 3) stop.abort('enough');
      },
    });
    await expect(call).rejects.toThrow(/enough/);
    expect(progress.map((p) => p.message)).toEqual(['1/1 pods not ready', '1/1 pods not ready', '1/1 pods not ready']);
    expect(progress.map((p) => p.progress)).toEqual([1, 2, 3]);
    await client.close();
  });
});
