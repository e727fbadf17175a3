/**
 * The apply-mode 409 for a GitOps-owned release keeps its text and adds what commit mode
 * would do, on every write that refuses it (update, rollback and delete alike), and says so
 * even where commit mode is not configured, naming the flags; the refusal writes nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startCommitWorld, type CommitWorld, type HostChoice } from './support.js';

let w: CommitWorld | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

async function refusal(
  choice: HostChoice, write: (world: CommitWorld) => Promise<unknown>,
): Promise<{ status?: number; message: string }> {
  w = await startCommitWorld(choice);
  const err = await write(w).then(
    () => { throw new Error('expected a refusal'); }, (e: Error & { status?: number }) => e,
  );
  return { status: err.status, message: err.message };
}

const REFUSED = 'conflict: HelmRelease kagent/ops is applied by Flux Kustomization "staging": its desired state lives in git, a live write would be undone. '
  + 'Change it in the GitOps repository, or pass force to write anyway.';

describe('the apply-mode 409 for a GitOps-owned release', () => {
  it('on delete_agent names the repository, branch and file commit mode would change, and deletes nothing', async () => {
    const err = await refusal('app', (world) => world.f.service.deleteAgent(world.f.ctx(), { name: 'ops' }));
    expect(err).toEqual({ status: 409, message: `${REFUSED} With mode "commit", agent-manager would open a pull request against acme/fleet@main changing clusters/staging/ops.yaml.` });
    expect(w!.f.sandbox.store.get('helmreleases', 'kagent', 'ops')).toBeDefined();
  });

  it('where commit mode is not configured, names the flags and where the change would go, without reading git', async () => {
    const err = await refusal('absent', (world) => world.f.service.updateAgent(world.f.ctx(), { name: 'ops', description: 'x' }));
    expect(err.message).toBe(`${REFUSED} With mode "commit" (not configured here: --github-app-id or --gitops-github-token), `
      + 'agent-manager would open a pull request against acme/fleet@main changing the file under clusters/staging that defines it.');
  });
});
