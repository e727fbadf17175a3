import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duplicateKey } from '../transport/input/duplicate-keys.js';
import { callerLogValue } from '../identity/caller.js';
import { createLogger } from '../log/logger.js';
import { startNamespacedFixture, type NamespacedFixture } from '../../test/support/service/shared-fixture.js';

const raw: string[] = [];
const root = createLogger({
  level: 'debug', pretty: false,
  destination: new Writable({
    write(chunk, _encoding, callback) {
      raw.push(...String(chunk).split('\n').filter(Boolean));
      callback();
    },
  }),
});

let f: NamespacedFixture;
beforeAll(async () => {
  f = await startNamespacedFixture('svc-log-keys', { log: root });
});
afterAll(() => f.close());

const alice = { subject: 'u-1', email: 'alice@example.com', groups: [], source: 'sso' as const };

describe('the log lines of writes', () => {
  it('carry each key once, the caller too, whether or not the request logger binds the caller', async () => {
    // As the HTTP context builds it behind the bearer guard: the caller bound to the logger.
    const bound = f.ctx({ caller: alice, log: root.child({ requestId: 'r-1' }).child({ caller: callerLogValue(alice) }) });
    await f.service.createAgent(bound, { name: 'logged', modelConfig: 'default-model-config', toolset: ['preset:none'] });
    await f.service.updateAgent(bound, { name: 'logged', description: 'once' });
    await f.service.updateAgent(bound, { name: 'logged', description: 'dry', dryRun: true });
    await f.service.rollbackAgent(bound, { name: 'logged', revision: 1 });
    await f.service.deleteAgent(bound, { name: 'logged', dryRun: true });
    // Without the binding (no guard in front), the service names the caller itself.
    await f.service.updateAgent(f.ctx(), { name: 'logged', description: 'service account' });
    const lines = raw.filter((l) => l.includes('"agent '));
    expect(lines.length).toBeGreaterThanOrEqual(5);
    for (const line of raw) expect(duplicateKey(line), line).toBeUndefined();
    const parsed = lines.map((l) => JSON.parse(l) as { msg: string; caller?: string; agent?: string });
    expect(parsed.filter((l) => l.caller === 'alice@example.com').map((l) => l.msg)).toEqual(
      expect.arrayContaining(['agent created', 'agent updated', 'agent update dry run', 'agent rolled back', expect.stringMatching(/\(dry run\)$/)]),
    );
    expect(parsed.at(-1)).toMatchObject({ msg: 'agent updated', caller: 'service-account', agent: 'logged' });
  });
});
