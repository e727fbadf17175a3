import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX_FLAGS, SERVE_FLAGS } from './config/index.js';
import { formatDefault } from './config/help.js';
import { createLogger, silentLogger } from './log/logger.js';
import { runCli } from './cli.js';

const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

async function cli(
  argv: string[], env: Record<string, string> = {}, onLogLine?: (line: string) => void,
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, env, {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    createLogger: () =>
      onLogLine ? createLogger({ destination: { write: (line: string) => onLogLine(line) } }) : silentLogger(),
  });
  return { code, stdout, stderr };
}

describe('runCli', () => {
  it('exits 2 naming the flag and the value for --agent-chart-refresh=banana', async () => {
    const r = await cli(['serve', '--agent-chart-refresh=banana']);
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: --agent-chart-refresh "banana": not a duration (want Go syntax such as 10m, 1h30m, 500ms or 0)\n',
    });
  });

  it('exits 2 for a bad env value, naming the variable too', async () => {
    const r = await cli(['serve'], { AGENT_CHART_REFRESH: 'banana' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--agent-chart-refresh (from AGENT_CHART_REFRESH) "banana"');
  });

  it('exits 2 with the documented text for --downstream-oauth without --enable-oauth', async () => {
    expect(await cli(['serve', '--downstream-oauth'])).toMatchObject({
      code: 2,
      stderr: 'Error: --downstream-oauth needs --enable-oauth: without OAuth there is no caller token to present to the Kubernetes API\n',
    });
  });

  it('exits 2 for an unknown command', async () => {
    expect(await cli(['frobnicate'])).toMatchObject({ code: 2, stderr: expect.stringContaining('Error: unknown command "frobnicate"') });
  });

  it.each([
    ['serve', SERVE_FLAGS],
    ['sandbox', SANDBOX_FLAGS],
  ] as const)('prints %s --help listing every flag with its env var and default, exit 0', async (command, table) => {
    const r = await cli([command, '--help']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    for (const def of table) {
      expect(r.stdout).toContain(`--${def.name}`);
      expect(r.stdout).toContain(`env ${def.env}, default ${formatDefault(def)}`);
    }
  });

  it('prints the root help for no arguments, -h and --help', async () => {
    for (const argv of [[], ['-h'], ['--help'], ['help']]) {
      const r = await cli(argv);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('agent-manager <command> [flags]');
    }
  });

  it('prints one line for --version', async () => {
    expect(await cli(['--version'])).toEqual({ code: 0, stdout: `agent-manager version ${VERSION}\n`, stderr: '' });
  });

  it('prints version, commit and build date for version', async () => {
    expect(await cli(['version'], { AGENT_MANAGER_COMMIT: 'abc1234', AGENT_MANAGER_BUILT: '2026-01-02T03:04:05Z' })).toEqual({
      code: 0,
      stdout: `agent-manager version ${VERSION}\n  commit: abc1234\n  built:  2026-01-02T03:04:05Z\n`,
      stderr: '',
    });
    expect((await cli(['version'])).stdout).toBe(`agent-manager version ${VERSION}\n  commit: unknown\n  built:  unknown\n`);
  });

  describe('a runtime failure', () => {
    let busy: Server | undefined;
    afterEach(async () => {
      await new Promise((resolve) => busy?.close(resolve) ?? resolve(undefined));
      busy = undefined;
    });

    const busyPort = async (): Promise<number> => {
      busy = createServer();
      await new Promise<void>((resolve) => busy!.listen(0, '127.0.0.1', resolve));
      return (busy.address() as AddressInfo).port;
    };

    it('exits 2 with one line naming --listen when the API port is in use', async () => {
      const port = await busyPort();
      const r = await cli(['serve', '--sandbox', `--listen=127.0.0.1:${port}`, '--metrics-listen=', '--agent-chart-oci-url=oci://127.0.0.1:9/charts/agent']);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `Error: --listen 127.0.0.1:${port}: the address is already in use; stop what holds it or choose another address with --listen\n`,
      );
    });

    it('exits 2 naming --metrics-listen when the metrics port is in use, never having said it is listening', async () => {
      const port = await busyPort();
      const logged: string[] = [];
      const r = await cli(
        ['serve', '--sandbox', '--listen=127.0.0.1:0', `--metrics-listen=127.0.0.1:${port}`, '--agent-chart-oci-url=oci://127.0.0.1:9/charts/agent'],
        {},
        (line) => logged.push(line),
      );
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `Error: --metrics-listen 127.0.0.1:${port}: the address is already in use; stop what holds it or choose another address with --metrics-listen\n`,
      );
      expect(logged.map((line) => (JSON.parse(line) as { msg: string }).msg)).not.toContain('listening');
    });

    it('exits 2 naming --sandbox-listen when the sandbox port is in use', async () => {
      const port = await busyPort();
      const r = await cli(['serve', '--sandbox', `--sandbox-listen=127.0.0.1:${port}`, '--listen=127.0.0.1:0', '--metrics-listen=']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^Error: --sandbox-listen 127\\.0\\.0\\.1:${port}: the address is already in use; .*\n$`));
    });

    it('exits 2 naming --listen when the sandbox command\'s port is in use', async () => {
      const port = await busyPort();
      const r = await cli(['sandbox', `--listen=127.0.0.1:${port}`]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^Error: --listen 127\\.0\\.0\\.1:${port}: the address is already in use; .*\n$`));
    });

    it('exits 1 naming what is missing when there is no cluster to talk to', async () => {
      const r = await cli(['serve', '--listen=127.0.0.1:0', '--metrics-listen=', '--kubeconfig=/nonexistent/kubeconfig']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^Error: agent-manager needs Kubernetes access: .*\n$/);
    });
  });
});
