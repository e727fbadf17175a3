import { ResponseContext, SelfDecodingBody } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { askedWaitSeconds, DEFAULT_RETRY_POLICY, sendWithRetries, type RetryPolicy } from './retry-after.js';

const answer = (status: number, retryAfter?: string) => new ResponseContext(
  status, retryAfter === undefined ? {} : { 'retry-after': retryAfter },
  new SelfDecodingBody(Promise.resolve(Buffer.from('{}'))),
);

/** A server that gives `answers` in turn (the last one for ever), counting the requests. */
function server(...answers: ResponseContext[]) {
  let sent = 0;
  return {
    send: () => Promise.resolve(answers[Math.min(sent++, answers.length - 1)]!),
    get sent() {
      return sent;
    },
  };
}

/** The default policy with a sleep that records each wait and returns at once. */
function recording(overrides: Partial<RetryPolicy> = {}) {
  const waits: number[] = [];
  const policy: RetryPolicy = {
    ...DEFAULT_RETRY_POLICY, ...overrides, sleep: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
  };
  return { policy, waits };
}

describe('askedWaitSeconds (client-go checkWait)', () => {
  it.each([
    ['a 429 with Retry-After', 429, '3', 3],
    ['a 503 with Retry-After', 503, '1', 1],
    ['any 5xx with Retry-After', 500, '0', 0],
    ['a 429 without it', 429, undefined, undefined],
    ['a 409 with it (only 429 and 5xx ask)', 409, '2', undefined],
    ['an HTTP date (client-go reads seconds only)', 503, 'Wed, 21 Oct 2026 07:28:00 GMT', undefined],
  ])('%s', (_case, status, header, seconds) => {
    expect(askedWaitSeconds(answer(status, header))).toBe(seconds);
  });
});

describe('sendWithRetries', () => {
  it('asks again after the wait a 429 asked for, and answers what came next', async () => {
    const api = server(answer(429, '2'), answer(200));
    const { policy, waits } = recording();
    expect((await sendWithRetries(api.send, policy)).httpStatusCode).toBe(200);
    expect({ sent: api.sent, waits }).toEqual({ sent: 2, waits: [2000] });
  });

  it('never repeats an answer that did not ask to be repeated (a 500 without Retry-After)', async () => {
    const api = server(answer(500), answer(200));
    const { policy, waits } = recording();
    expect((await sendWithRetries(api.send, policy)).httpStatusCode).toBe(500);
    expect({ sent: api.sent, waits }).toEqual({ sent: 1, waits: [] });
  });

  it('stops after ten retries, as client-go does, and passes the last answer on', async () => {
    const api = server(answer(429, '0'));
    const { policy } = recording();
    const last = await sendWithRetries(api.send, policy);
    expect({ status: last.httpStatusCode, retryAfter: last.headers['retry-after'], sent: api.sent })
      .toEqual({ status: 429, retryAfter: '0', sent: 11 });
  });

  it('does not wait past its budget: a Retry-After beyond what is left passes on at once', async () => {
    const api = server(answer(503, '4'), answer(503, '4'), answer(503, '4'), answer(200));
    const { policy, waits } = recording({ maxWaitMs: 10_000 });
    const last = await sendWithRetries(api.send, policy);
    expect({ status: last.httpStatusCode, sent: api.sent, waits })
      .toEqual({ status: 503, sent: 3, waits: [4000, 4000] });
  });

  it('ends a wait when the request is cancelled, with the cancellation', async () => {
    const api = server(answer(429, '30'));
    const controller = new AbortController();
    const reason = new Error('the caller went away');
    const sending = sendWithRetries(api.send, { ...DEFAULT_RETRY_POLICY, maxWaitMs: 60_000 }, controller.signal);
    controller.abort(reason);
    await expect(sending).rejects.toBe(reason);
    expect(api.sent).toBe(1);
  });
});
