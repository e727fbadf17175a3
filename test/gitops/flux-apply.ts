/**
 * What Flux's kustomize-controller does with a merged path, for the suites that follow a
 * pull request past its merge: the rendered objects applied server-side with forced
 * ownership as its field manager, each labelled with the Kustomization that applied it (the
 * labels agent-manager reads to call a release GitOps-owned). Runs the real kubectl against
 * the sandbox with the administrator's kubeconfig.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sandbox } from '@agent-manager/kube-sandbox';
import { stringify } from 'yaml';
import { KUBECTL } from './support.js';

export async function fluxApplies(
  sandbox: Sandbox, objects: Array<Record<string, any>>, kustomization: string,
): Promise<void> {
  const labelled = objects.map((o) => ({
    ...o,
    metadata: {
      ...o.metadata,
      labels: { ...o.metadata.labels, 'kustomize.toolkit.fluxcd.io/name': kustomization, 'kustomize.toolkit.fluxcd.io/namespace': 'flux-system' },
    },
  }));
  const dir = await mkdtemp(join(tmpdir(), 'flux-apply-'));
  try {
    await sandbox.writeKubeconfig(join(dir, 'kubeconfig'));
    await new Promise<void>((resolve, reject) => {
      const child = execFile(KUBECTL, [
        '--kubeconfig', join(dir, 'kubeconfig'), 'apply', '--server-side', '--field-manager=kustomize-controller', '--force-conflicts', '-f', '-',
      ], { timeout: 30_000, env: { ...process.env, GOGC: 'off' } }, // a moment's run: no garbage collector
      (err, _stdout, stderr) => (err ? reject(new Error(stderr || err.message)) : resolve()));
      child.stdin!.end(labelled.map((o) => stringify(o)).join('---\n'));
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The reviewer's merge: the base branch fast-forwards to the pull request's branch. */
export async function merge(repo: { git(args: string[]): Promise<string> }, branch: string, base = 'main'): Promise<void> {
  await repo.git(['update-ref', `refs/heads/${base}`, (await repo.git(['rev-parse', branch])).trim()]);
}
