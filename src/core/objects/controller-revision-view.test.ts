import { describe, expect, it } from 'vitest';
import { parseControllerRevision } from './controller-revision-view.js';

describe('parseControllerRevision', () => {
  it('reads the number, the data and the owning HelmRelease of a valid revision', () => {
    const view = parseControllerRevision({
      apiVersion: 'apps/v1', kind: 'ControllerRevision', revision: 3, data: { operation: 'update' },
      metadata: { name: 'sre-3', ownerReferences: [{ kind: 'Deployment', uid: 'd' }, { kind: 'HelmRelease', uid: 'h' }] },
    });
    expect(view).toMatchObject({ revision: 3, data: { operation: 'update' }, ownerUid: 'h', meta: { name: 'sre-3' } });
  });

  it('a partial revision has no number, no owner and empty data', () => {
    const view = parseControllerRevision({ metadata: { name: 'sre-1' } });
    expect(view.revision).toBeUndefined();
    expect(view.ownerUid).toBeUndefined();
    expect(view.data).toEqual({});
  });

  it('forged field types read as absent instead of throwing', () => {
    const view = parseControllerRevision({
      revision: '3', data: ['x'], metadata: { ownerReferences: [{ kind: 'HelmRelease', uid: '' }, 'x'] },
    });
    expect(view).toEqual({ meta: expect.objectContaining({ name: '' }), data: {} });
    expect(parseControllerRevision({ revision: 2.5 }).revision).toBeUndefined();
    expect(parseControllerRevision(null).data).toEqual({});
  });
});
