import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, sep } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { MIN_NODE, nodeVersionProblem } from './main.js';

const engines = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { engines: { node: string } }).engines.node;

/**
 * The machine's own node, as `command -p node` finds it: the first on PATH outside the
 * project's node_modules (where the pinned Node lives), then on the system's default path;
 * looked up once, without a shell. Undefined when it is the Node running the tests.
 */
function machineNode(): { path: string; version: string } | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/local/bin', '/usr/bin', '/bin']
    .filter((dir) => dir !== '' && !dir.split(sep).includes('node_modules'));
  for (const dir of dirs) {
    const path = join(dir, 'node');
    try {
      accessSync(path, constants.X_OK);
    } catch {
      continue;
    }
    if (realpathSync(path) === realpathSync(process.execPath)) return undefined;
    const version = execFileSync(path, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
    return { path, version };
  }
  return undefined;
}
const machine = machineNode();
const older = machine !== undefined && nodeVersionProblem(machine.version, machine.path) !== undefined;

// The entry as tsc builds it (same target), beside a stand-in CLI that says it ran.
const dir = mkdtempSync(join(tmpdir(), 'am-main-'));
const entry = join(dir, 'main.js');
writeFileSync(entry, ts.transpileModule(readFileSync(new URL('./main.ts', import.meta.url), 'utf8'), {
  compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
}).outputText);
writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
writeFileSync(join(dir, 'cli.js'), 'export async function runCli(argv) { process.stdout.write(`cli ${argv.join(" ")}\\n`); return 0; }\n');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the Node version guard of dist/main.js', () => {
  it('needs the Node package.json engines names', () => {
    expect(engines).toBe(`>=${MIN_NODE}`);
  });

  it.each([['24.11.0', true], ['24.21.0', true], ['25.0.0', true], ['24.10.9', false], ['20.20.2', false], ['18.0.0', false]])(
    'judges Node %s (runs: %s)', (version, runs) => {
      expect(nodeVersionProblem(version, '/usr/bin/node') === undefined).toBe(runs);
    },
  );

  it.skipIf(!older)('exits 1 on the machine\'s older node with one line naming the version found and how to run it', () => {
    const run = spawnSync(machine!.path, [entry, 'serve', '--sandbox'], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`Error: agent-manager needs Node.js ${MIN_NODE} or newer, but ${machine!.path} is Node.js ${machine!.version}; `
      + 'run it with the project\'s Node: npm start, npx agent-manager, or node_modules/.bin/node dist/main.js\n');
  });

  it('hands over to the CLI on the project\'s Node', () => {
    const run = spawnSync(process.execPath, [entry, 'serve', '--help'], { encoding: 'utf8' });
    expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({ status: 0, stdout: 'cli serve --help\n', stderr: '' });
  });
});
