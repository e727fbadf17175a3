/**
 * ClientNodeListWatch against the sandbox API server, through the real
 * @kubernetes/client-node: a watch of a quiet namespace stays open for as long as the
 * server-side timeout says, not client-node's own 30 s inactivity bound.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startSandbox, type Sandbox } from '@agent-manager/kube-sandbox';
import type { KubeObject } from '../service/ports.js';
import { makeKubeApis } from './api-clients.js';
import { loadBaseKubeConfig } from './kubeconfig.js';
import { ClientNodeListWatch } from './list-watch.js';

const configMaps = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap' };
let sandbox: Sandbox | undefined;
const cleanups: (() => void)[] = [];

afterEach(async () => {
  vi.useRealTimers();
  for (const cleanup of cleanups.splice(0)) cleanup();
  await sandbox?.close();
  sandbox = undefined;
});

async function until(probe: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400 && !probe(); i++) await new Promise((r) => setImmediate(r));
  if (!probe()) throw new Error(`${what} did not happen`);
}

describe('ClientNodeListWatch', () => {
  it('keeps a quiet watch open past client-node\'s 30 s inactivity bound, and it still delivers the next change', async () => {
    sandbox = await startSandbox({ seed: true });
    const kc = loadBaseKubeConfig({ kubeconfigYaml: sandbox.kubeconfigYaml({ token: sandbox.adminToken, name: 'admin' }) });
    const apis = makeKubeApis(kc);
    cleanups.push(() => apis.close());
    const source = new ClientNodeListWatch(kc, apis, { watchTimeoutSeconds: [300, 300] });
    const { resourceVersion } = await source.list(configMaps, 'kagent', {});

    // Only the timers of the watch's bounds are faked; sockets stay real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const ends: unknown[] = [];
    const events: { type: string; name: string }[] = [];
    const handle = await source.watch(configMaps, 'kagent', {}, resourceVersion, {
      onEvent: (type: string, object: KubeObject) => events.push({ type, name: object.metadata.name }),
      onEnd: (err?: unknown) => ends.push(err ?? 'ended'),
    });
    cleanups.push(() => handle.stop());
    expect(sandbox.counters.count({ verb: 'watch', resource: 'configmaps' })).toBe(1);

    vi.advanceTimersByTime(45_000);
    expect(ends).toEqual([]);

    vi.useRealTimers();
    sandbox.store.create('configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'after-the-quiet', namespace: 'kagent' }, data: {} } as never);
    await until(() => events.length > 0, 'the ADDED event');
    expect(events).toEqual([{ type: 'ADDED', name: 'after-the-quiet' }]);
    expect(ends).toEqual([]);
  });
});
