/**
 * The image's facts, read from the Dockerfile text (no container engine runs here):
 * two stages on a Node 24 base, production dependencies only in the runtime stage, a
 * non-root user, the agent-manager entrypoint with `serve` as its default command, the
 * two ports, and no secrets. Plus what .dockerignore keeps out of the build context.
 */
import { describe, expect, it } from 'vitest';
import { readRepoFile } from './chart-files.js';

interface Instruction {
  op: string;
  args: string;
}

/** Dockerfile instructions with continuation lines joined and comments dropped. */
function instructions(text: string): Instruction[] {
  const joined = text.replace(/\\\n\s*/g, ' ');
  return joined.split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [op, ...rest] = line.split(/\s+/);
      return { op: op!.toUpperCase(), args: rest.join(' ') };
    });
}

const all = instructions(readRepoFile('Dockerfile'));
const stages: Instruction[][] = [];
for (const ins of all) {
  if (ins.op === 'FROM') stages.push([]);
  stages.at(-1)?.push(ins);
}
const [build, runtime] = stages as [Instruction[], Instruction[]];
const args = (stage: Instruction[], op: string) => stage.filter((i) => i.op === op).map((i) => i.args);

describe('the Dockerfile', () => {
  it('has a build stage and a runtime stage, both on the Node 24 LTS slim image the package.json engines ask for', () => {
    expect(stages).toHaveLength(2);
    expect(args(build, 'FROM')[0]).toMatch(/^node:24\.\d+\.\d+-bookworm-slim(@sha256:[0-9a-f]{64})? AS build$/);
    expect(args(runtime, 'FROM')[0]).toMatch(/^node:24\.\d+\.\d+-bookworm-slim(@sha256:[0-9a-f]{64})? AS runtime$/);
    const engines = (JSON.parse(readRepoFile('package.json')) as { engines: { node: string } }).engines;
    expect(engines.node).toMatch(/^>=24\./);
  });

  it('runs on the Node release the tests run on: the base tag names the pinned node devDependency', () => {
    const pinned = (JSON.parse(readRepoFile('package.json')) as { devDependencies: Record<string, string> }).devDependencies.node;
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    for (const stage of [build, runtime]) expect(args(stage, 'FROM')[0]).toMatch(new RegExp(`^node:${pinned.replaceAll('.', '\\.')}-bookworm-slim[@ ]`));
  });

  it('gives both stages one base, with the digest beside the tag when one is pinned, and says how to read it', () => {
    const bases = [build, runtime].map((stage) => args(stage, 'FROM')[0]!.split(' ')[0]);
    expect(bases[1]).toBe(bases[0]);
    expect(readRepoFile('Dockerfile')).toContain('docker buildx imagetools inspect node:');
  });

  it('ships client-node once: a dev dependency, bundled into dist/vendor, which the pruned node_modules lacks', () => {
    const pkg = JSON.parse(readRepoFile('package.json')) as Record<string, Record<string, string> | undefined>;
    expect(pkg.devDependencies?.['@kubernetes/client-node']).toBeDefined();
    expect(pkg.dependencies?.['@kubernetes/client-node']).toBeUndefined();
    expect(pkg.scripts?.['build:product']).toBe('node scripts/build.mjs --product');
  });

  it('ships no pino-pretty: it is a dev dependency, which the build prunes before the runtime stage copies node_modules', () => {
    const pkg = JSON.parse(readRepoFile('package.json')) as Record<string, Record<string, string> | undefined>;
    expect(pkg.devDependencies?.['pino-pretty']).toBeDefined();
    for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies']) expect(pkg[field]?.['pino-pretty'], field).toBeUndefined();
    expect(args(build, 'RUN').join('\n')).toMatch(/npm prune --omit=dev/);
  });

  it('builds with dev dependencies and prunes them before the runtime stage copies node_modules', () => {
    const run = args(build, 'RUN').join('\n');
    expect(run).toMatch(/npm ci\b/);
    expect(run).toMatch(/npm run build:product && npm prune --omit=dev/);
    expect(args(runtime, 'RUN').join('\n')).not.toMatch(/npm (ci|install)/);
  });

  it('copies only dist, api, the production node_modules and package.json from the build stage', () => {
    const copies = args(runtime, 'COPY').map((c) => c.replace(/^--from=build\s+/, '').split(/\s+/)[0]);
    expect(copies.sort()).toEqual(['/src/api', '/src/dist', '/src/node_modules', '/src/package.json']);
    for (const c of args(runtime, 'COPY')) expect(c).toMatch(/^--from=build /);
  });

  it('leaves the sandbox package out: no stage copies packages/, and the build builds the product only', () => {
    for (const c of args(build, 'COPY')) expect(c.split(/\s+/)[0]).not.toMatch(/^packages\b|^\.$/);
    const pkg = JSON.parse(readRepoFile('package.json')) as { scripts: Record<string, string> };
    expect(pkg.scripts['build:product']).not.toMatch(/sandbox|-w |--workspace/);
  });

  it('runs as uid and gid 1000', () => {
    expect(args(runtime, 'USER')).toEqual(['1000:1000']);
    const userAt = runtime.findIndex((i) => i.op === 'USER');
    expect(runtime.slice(userAt).some((i) => i.op === 'RUN' || i.op === 'COPY')).toBe(false);
  });

  it('starts agent-manager with serve as the default command and exposes 8080 and 9464', () => {
    expect(args(runtime, 'ENTRYPOINT')).toEqual(['["node", "/app/dist/main.js"]']);
    expect(args(runtime, 'CMD')).toEqual(['["serve"]']);
    expect(args(runtime, 'EXPOSE')).toEqual(['8080 9464']);
    expect(args(runtime, 'WORKDIR')).toEqual(['/app']);
  });

  it('puts no secrets in the image', () => {
    for (const ins of all.filter((i) => ['ENV', 'ARG', 'LABEL'].includes(i.op))) {
      expect(ins.args).not.toMatch(/TOKEN|SECRET|PASSWORD|KEY/i);
    }
    expect(all.some((i) => i.op === 'COPY' && /\.env|secret|\.pem|kubeconfig/i.test(i.args))).toBe(false);
  });

  it('carries the package version: VERSION defaults to package.json\'s, in the OCI version label beside revision and build date', () => {
    const pkg = JSON.parse(readRepoFile('package.json')) as { version: string; license: string };
    expect(args(runtime, 'ARG')).toEqual(expect.arrayContaining([`VERSION=${pkg.version}`, 'COMMIT=unknown', 'BUILT=unknown']));
    const labels = Object.fromEntries(args(runtime, 'LABEL').flatMap((l) => [...l.matchAll(/([\w.-]+)="([^"]*)"/g)].map((m) => [m[1], m[2]])));
    expect(labels).toMatchObject({
      'org.opencontainers.image.title': 'agent-manager',
      'org.opencontainers.image.version': '${VERSION}',
      'org.opencontainers.image.revision': '${COMMIT}',
      'org.opencontainers.image.created': '${BUILT}',
      'org.opencontainers.image.licenses': pkg.license,
    });
  });

  it('keeps the main script where package.json says the bin is', () => {
    const pkg = JSON.parse(readRepoFile('package.json')) as { bin: Record<string, string> };
    expect(`/app/${pkg.bin['agent-manager']}`).toBe('/app/dist/main.js');
  });
});

describe('.dockerignore', () => {
  const ignored = readRepoFile('.dockerignore').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));

  it.each(['node_modules', 'dist', '.git', 'coverage', 'bench/.tmp', '.env', '.sandbox'])('keeps %s out of the build context', (entry) => {
    expect(ignored).toContain(entry);
  });

  it('keeps what the build stage copies in the context', () => {
    for (const needed of ['src', 'api', 'scripts', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json']) {
      expect(ignored).not.toContain(needed);
    }
  });
});
