import { describe, expect, it } from 'vitest';
import { startFakeServiceFixture } from '../../../test/support/service/fake-fixture.js';
import { seedAgentCr, seedRelease } from '../../../test/support/service/seed-agents.js';

describe('an agent with a release reads as its desired state', () => {
  it('answers a write with the values written, and what kagent rendered under rendered', async () => {
    const f = startFakeServiceFixture();
    seedRelease(f.kube, { name: 'portal', ready: true, values: { agent: { name: 'portal', displayName: 'Portal A' },
      modelConfig: { name: 'default-model-config' }, toolset: ['preset:none'] } });
    seedAgentCr(f.kube, { name: 'portal', release: { name: 'portal', namespace: 'kagent' }, ready: true,
      displayName: 'Portal A' });
    const updated = await f.service.updateAgent(f.ctx(), { name: 'portal', description: 'fresh-1',
      displayName: 'Portal A1' });
    expect(updated.agent).toMatchObject({ displayName: 'Portal A1', description: 'fresh-1',
      rendered: { displayName: 'Portal A' } });
    const read = await f.service.getAgent(f.ctx(), { name: 'portal' });
    expect(read).toMatchObject({ displayName: 'Portal A1', description: 'fresh-1' });
    expect(read.rendered?.displayName).toBe('Portal A');
    const [row] = (await f.service.listAgents(f.ctx(), { details: false })).agents.filter((a) => a.name === 'portal');
    expect(row?.displayName).toBe('Portal A1');
  });
});
