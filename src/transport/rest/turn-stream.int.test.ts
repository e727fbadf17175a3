/**
 * The session turns' stream on the router with a fake service (the wire only; the turns
 * themselves run against the sandbox in test/sessions): `update` events, then `turn`; a
 * start's stream carries the `Location` its JSON answer has, though its headers go out
 * with the first update, before the answer.
 */
import { describe, expect, it } from 'vitest';
import { FakeService, SAMPLE_SESSION_TURN } from '../../../test/support/transport/fake-service.js';
import { serveRouterPerFile } from '../../../test/support/transport/serve-router.js';
import { parseEvents } from '../../../test/support/transport/sse.js';

const service = new FakeService();
const api = serveRouterPerFile(service);
const SESSION = `/api/v1/agents/kagent/sre/sessions/${SAMPLE_SESSION_TURN.session.id}`;

const post = (path: string, accept: string) => fetch(`${api.base}${path}`, {
  method: 'POST', headers: { 'content-type': 'application/json', accept }, body: JSON.stringify({ message: 'hi' }),
});

describe('POST …/sessions with Accept: text/event-stream', () => {
  it('sends the Location of the session it starts, as the JSON answer does', async () => {
    const json = await post('/agents/kagent/sre/sessions', 'application/json');
    expect(json.status).toBe(201);
    expect(json.headers.get('location')).toBe(SESSION);
    const res = await post('/agents/kagent/sre/sessions', 'text/event-stream');
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('location')).toBe(SESSION);
    expect(parseEvents(await res.text()).map((e) => e.event)).toEqual(['update', 'turn']);
  });

  it('sends no Location for a message in a session that already exists, as the JSON answer does not', async () => {
    const res = await post(`/agents/kagent/sre/sessions/${SAMPLE_SESSION_TURN.session.id}/messages`, 'text/event-stream');
    expect(res.status).toBe(200);
    expect(res.headers.get('location')).toBeNull();
    expect(parseEvents(await res.text()).map((e) => e.event)).toEqual(['update', 'turn']);
  });
});
