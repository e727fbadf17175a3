import http from 'node:http';
import { getEventListeners } from 'node:events';
import type { AddressInfo } from 'node:net';
import { HttpMethod, RequestContext } from '@kubernetes/client-node';
import { Client } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { sendRequest } from './http-library.js';

let server: http.Server | undefined;
let client: Client | undefined;

/** A plain HTTP server answering with `handler`; resolves with its origin. */
async function serve(handler: http.RequestListener): Promise<string> {
  server = http.createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  await client?.destroy();
  client = undefined;
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

describe('sendRequest', () => {
  it('answers whole: a body written in pieces, repeated headers joined as the library expects', async () => {
    const origin = await serve((_req, res) => {
      res.setHeader('x-multi', ['a', 'b']);
      res.write('{"items":');
      setImmediate(() => res.end('[1,2,3]}'));
    });

    const answer = await sendRequest(new RequestContext(`${origin}/list?limit=3`, HttpMethod.GET));

    expect(answer.httpStatusCode).toBe(200);
    expect(answer.headers['x-multi']).toBe('a, b');
    expect(JSON.parse(await answer.body.text())).toEqual({ items: [1, 2, 3] });
  });

  it('rejects with the reason of the caller\'s signal, and leaves no listener on it once answered', async () => {
    let arrived!: () => void;
    const arrival = new Promise<void>((resolve) => { arrived = resolve; });
    const origin = await serve((req, res) => {
      if (req.url === '/ok') res.end('{}');
      else arrived();
    });
    const controller = new AbortController();
    const answered = new RequestContext(`${origin}/ok`, HttpMethod.GET);
    answered.setSignal(controller.signal);
    await sendRequest(answered);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);

    const hanging = new RequestContext(`${origin}/hang`, HttpMethod.GET);
    hanging.setSignal(controller.signal);
    const pending = sendRequest(hanging);
    await arrival;
    const reason = new Error('the client went away');
    controller.abort(reason);

    await expect(pending).rejects.toBe(reason);
  });

  it('gives up at the deadline a request still waiting for a connection, and never sends it', async () => {
    const paths: string[] = [];
    const answers: (() => void)[] = [];
    let next: (() => void) | undefined;
    const origin = await serve((req, res) => {
      paths.push(req.url ?? '');
      answers.push(() => res.end('{}'));
      next?.();
    });
    const arrived = (): Promise<void> => new Promise((resolve) => { next = resolve; });
    const send = (path: string, deadlineMs?: number): Promise<unknown> => {
      const context = new RequestContext(`${origin}${path}`, HttpMethod.GET);
      context.setDispatcher(client!);
      return sendRequest(context, deadlineMs);
    };
    // One connection: the second request waits in the client's queue behind the first.
    client = new Client(origin, { pipelining: 1 });
    const firstArrived = arrived();
    const first = send('/first');
    await firstArrived;

    await expect(send('/queued', 30)).rejects.toMatchObject({ name: 'TimeoutError' });
    // The given-up request reaches the front of the queue once the first is answered: it is
    // aborted there instead of sent, so the next request on the connection is the third.
    const thirdArrived = arrived();
    const third = send('/third');
    answers[0]!();
    await first;
    await thirdArrived;
    answers[1]!();
    await third;
    expect(paths).toEqual(['/first', '/third']);
  });
});
