/**
 * Shared pieces of the commit-mode suites: the service fixture with the GitHub host over
 * the double, and `kustomize`, the real `kubectl kustomize` of a directory of a pushed
 * branch (checked out of the bare repository), its output kept by the tree's hash.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { GitHubGitOpsHost, type GitHubHostConfig } from '../../src/github/commit-host.js';
import { seedGitOpsCluster, startGitOpsWorld, type GitOpsWorld } from '../support/github/commit-world.js';
import { startServiceFixture, type ServiceFixture } from '../support/service/fixture.js';
import { smallSpawn } from '../support/small-spawn.js';
import { testTool } from '../support/test-tools.js';
import { keepOutput, keptOutput, kustomizeKey } from './kustomize-kept.js';

export const KUBECTL = testTool('kubectl') ?? 'kubectl';
/** kubectl's file, for the key of a kept output (test/gitops/kustomize-kept.ts). */
const KUBECTL_PATH = testTool('kubectl') ?? '/dev/null';
export const kubectlPresent = testTool('kubectl') !== undefined;

export interface CommitWorld {
  world: GitOpsWorld;
  f: ServiceFixture;
  close(): Promise<void>;
}

export type HostChoice = 'app' | 'token' | 'none' | 'absent';

export function hostConfig(world: GitOpsWorld, choice: HostChoice, token?: string): GitHubHostConfig {
  return {
    apiUrl: world.github.url,
    ...(choice === 'app' ? { app: { appId: '4242', privateKey: world.appPrivateKey } } : {}),
    ...(choice === 'token' ? { token } : {}),
    client: { writeSpacingMs: 0, notificationSpacingMs: 0, retryBaseMs: 1 },
  };
}

export async function startCommitWorld(choice: HostChoice = 'app', options: { token?: string } = {}): Promise<CommitWorld> {
  const world = await startGitOpsWorld();
  const f = await startServiceFixture({
    gitops: choice === 'absent' ? undefined : new GitHubGitOpsHost(hostConfig(world, choice, options.token)),
  });
  seedGitOpsCluster(f.sandbox);
  return { world, f, async close() { await f.close(); await world.close(); } };
}

/** `kubectl kustomize <directory>` of `ref`, as parsed objects. */
export async function kustomize(
  world: GitOpsWorld, ref: string, directory: string,
): Promise<Array<Record<string, any>>> {
  const dir = await world.repo.checkout(ref);
  try {
    const key = kustomizeKey(dir, directory, KUBECTL_PATH);
    let output = keptOutput(key);
    if (output === undefined) {
      // Without Go's garbage collector (GOGC=off): the run lives a moment, as helm's do.
      const run = await smallSpawn(KUBECTL, ['kustomize', join(dir, directory)], {
        timeoutMs: 30_000, env: { ...process.env, GOGC: 'off' },
      });
      if (run.code !== 0) {
        throw new Error(run.stderr.toString('utf8') || run.error || `kubectl kustomize: exit ${run.code}`);
      }
      output = run.stdout.toString('utf8');
      keepOutput(key, output);
    }
    return parseAllDocuments(output).map((d) => d.toJS() as Record<string, any>);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export const byKind = (objects: Array<Record<string, any>>, kind: string, name: string) =>
  objects.find((o) => o.kind === kind && o.metadata?.name === name);
