/**
 * The operator and developer docs name what they must: every serve flag and variable
 * in docs/operations.md (the generated block itself is checked in
 * src/config/flags-doc.test.ts), the ways to run the service and each suite in
 * docs/development.md, and the README's pointers, with its set-up commands unchanged.
 */
import { describe, expect, it } from 'vitest';
import { SANDBOX_FLAGS, SERVE_FLAGS } from '../../src/config/index.js';
import { readRepoFile } from './chart-files.js';

describe('docs/operations.md', () => {
  const doc = readRepoFile('docs', 'operations.md');

  it.each(SERVE_FLAGS.map((f) => [f.name, f.env]))('names serve flag --%s and %s', (name, env) => {
    expect(doc).toContain(`--${name}`);
    expect(doc).toContain(`\`${env}\``);
  });

  it('names every sandbox flag', () => {
    for (const f of SANDBOX_FLAGS) expect(doc).toContain(`--${f.name}`);
  });

  /** The text under a `## heading`, up to the next `## `. */
  const section = (heading: string): string => {
    const start = doc.indexOf(`## ${heading}\n`);
    expect(start, `a "## ${heading}" section`).toBeGreaterThan(-1);
    const end = doc.indexOf('\n## ', start + 3);
    return doc.slice(start, end === -1 ? undefined : end);
  };

  it('lists each metric once in the metrics table', () => {
    const rows = [...section('Metrics').matchAll(/^\| (`[^|]+`) \|/gm)].map((m) => m[1]!);
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.filter((row, i) => rows.indexOf(row) !== i)).toEqual([]);
  });

  it.each([
    ['the metrics on their own listener', 'Metrics', ['separate port', '--metrics-listen', 'http_server_request_duration_seconds', 'mcp_server_operation_duration_seconds']],
    ['the logs: JSON on stderr, redaction, request ids, the caller', 'Logs', ['JSON lines on stderr', 'Redaction', '[redacted]', 'X-Request-Id', 'caller=']],
    ['the three identity modes', 'Identity modes', ['ServiceAccount', '--enable-oauth', '--downstream-oauth', 'There is no fallback']],
    ['the health probes', 'Listeners and health probes', ['/healthz', '/readyz']],
  ])('covers %s', (_name, heading, phrases) => {
    const text = section(heading);
    for (const phrase of phrases) expect(text).toContain(phrase);
  });
});

describe('docs/development.md', () => {
  const doc = readRepoFile('docs', 'development.md');

  it.each([
    'npm start',
    'node dist/main.js serve --sandbox --sandbox-kubeconfig /tmp/am.kubeconfig',
    'KUBECONFIG=/tmp/am.kubeconfig kubectl get helmreleases -A',
    'node dist/main.js sandbox',
    'npm test',
    'npm run test:reliability',
    'npm run bench',
    'npm run lint',
    'npx vitest run test/chart-package',
    'hack/helm-checks.sh',
  ])('says how to run: %s', (command) => {
    expect(doc).toContain(command);
  });

  it('uses only flags the commands have', () => {
    const known = new Set<string>(['help', ...[...SERVE_FLAGS, ...SANDBOX_FLAGS].map((f) => f.name)]);
    const used = [...doc.matchAll(/(?:serve|sandbox) (--[a-z-]+(?:[ =][^\s\\`]+)?(?: --[a-z-]+(?:[ =][^\s\\`]+)?)*)/g)]
      .flatMap((m) => [...m[1]!.matchAll(/--(?:no-)?([a-z][a-z-]*)/g)].map((f) => f[1]!));
    expect(used.length).toBeGreaterThan(3);
    expect(used.filter((f) => !known.has(f))).toEqual([]);
  });
});

describe('README.md', () => {
  const readme = readRepoFile('README.md');

  it('keeps its two set-up commands', () => {
    expect(readme).toContain('```sh\nnpm ci && npm start\n```');
    expect(readme).toContain('```sh\nnpm ci && npm test\n```');
  });

  it('names everything the test set-up installs, in its sentence before npm test', () => {
    const setup = readRepoFile('scripts', 'test-setup.mjs');
    const needed = setup.slice(setup.indexOf('const NEEDED'), setup.indexOf('];', setup.indexOf('const NEEDED')));
    const packages = [...new Set([...needed.matchAll(/\['[^']+', '([^']+)'\]/g)].map((m) => m[1]!))];
    expect(packages).toContain('apache2-utils');
    const block = readme.indexOf('\n\n```sh\nnpm ci && npm test');
    const sentence = readme.slice(readme.lastIndexOf('\n\n', block - 1), block);
    for (const name of packages) expect(sentence).toContain(`\`${name}\``);
    expect(setup).toContain("'@modelcontextprotocol/inspector'");
    expect(sentence).toContain('MCP Inspector');
    expect(sentence).toContain('helm v4');
  });

  it('says the npm ci engine warnings on an older Node are expected', () => {
    expect(readme).toMatch(/EBADENGINE[^\n]*\n?[^\n]*expected/);
  });

  it('ends with an architecture summary and a pointer to the chart', () => {
    expect(readme).toMatch(/## Architecture\n[\s\S]*\(docs\/architecture\.md\)[\s\S]*## Deploying\n[\s\S]*\(helm\/agent-manager\/README\.md\)/);
  });
});
