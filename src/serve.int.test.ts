import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig, type AppConfig } from './config/index.js';
import { createLogger, silentLogger, type Logger } from './log/logger.js';
import { runServe } from './serve.js';
import { deadPort, startServe, type RunningServe } from '../test/support/start-serve.js';

describe('runServe against an API server that is down', () => {
  let dir: string;
  let kubeconfig: string;
  let registry: string;
  let current: RunningServe | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'serve-test-'));
    kubeconfig = join(dir, 'kubeconfig');
    // Loopback only: a chart registry that is down too.
    registry = `oci://127.0.0.1:${await deadPort()}/charts/agent`;
    writeFileSync(kubeconfig, [
      'apiVersion: v1', 'kind: Config', 'current-context: dead',
      'clusters: [{name: dead, cluster: {server: "http://127.0.0.1:' + String(await deadPort()) + '"}}]',
      'users: [{name: u, user: {token: not-a-real-token}}]',
      'contexts: [{name: dead, context: {cluster: dead, user: u}}]',
    ].join('\n'));
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  afterEach(async () => {
    await current?.close();
    current = undefined;
  });

  function config(args: string[] = [], env: Record<string, string> = {}): AppConfig {
    const r = parseConfig(['serve', '--listen=127.0.0.1:0', '--metrics-listen=', '--shutdown-delay=0s', `--kubeconfig=${kubeconfig}`, `--agent-chart-oci-url=${registry}`, ...args], env);
    if (r.kind !== 'serve') throw new Error(JSON.stringify(r));
    return r.config;
  }

  async function start(cfg = config(), log: Logger = silentLogger()): Promise<{ base: string; metrics?: string }> {
    current = await startServe(cfg, log);
    return current;
  }

  it.each(['/healthz', '/readyz'])('answers GET %s with 200 ok in text/plain', async (path) => {
    const { base } = await start();
    const res = await fetch(`${base}${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toBe('ok');
  });

  it('still describes itself (embedded schema, discovered defaults) and reports the outage on reads', async () => {
    const { base } = await start();
    const info = (await (await fetch(`${base}/api/v1/info`)).json()) as { chart: { schemaSource: string }; apiVersions: { agent: string } };
    expect(info.chart.schemaSource).toBe('embedded');
    expect(info.apiVersions.agent).toBe('kagent.dev/v1alpha2');
    const agents = await fetch(`${base}/api/v1/agents`);
    expect(agents.status).toBe(502);
    expect(((await agents.json()) as { error: { code: string } }).error.code).toBe('backend_error');
  });

  it('serves MCP at --mcp-path', async () => {
    const { base } = await start(config(['--mcp-path=/x/mcp']));
    const res = await fetch(`${base}/x/mcp`, { method: 'GET' });
    expect(res.status).toBe(405);
    await res.text();
  });

  it('serves /metrics on its own listener and nowhere else', async () => {
    const { base, metrics } = await start(config(['--metrics-listen=127.0.0.1:0']));
    await (await fetch(`${base}/healthz`)).text();
    const scrape = await fetch(`${metrics}/metrics`);
    expect(scrape.status).toBe(200);
    expect(await scrape.text()).toContain('http_server_request_duration_seconds_count{method="GET",route="/healthz",code="200",status="200"} 1');
    expect((await fetch(`${base}/metrics`)).status).toBe(404);
  });

  it('stops listening (both listeners) once asked to stop', async () => {
    const { base, metrics } = await start(config(['--metrics-listen=127.0.0.1:0']));
    await current!.close();
    current = undefined;
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
    await expect(fetch(`${metrics}/metrics`)).rejects.toThrow();
  });

  it('logs agent-manager starting with the redacted summary, the discovery fallbacks, listening, and server stopped', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const destination = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    await start(config([], { GITHUB_TOKEN: 'ghp_do_not_log' }), createLogger({ destination }));
    await current!.close();
    current = undefined;
    const messages = lines.map((l) => l.msg);
    expect(messages[0]).toBe('agent-manager starting');
    expect(messages).toContain('kagent API discovery failed, using default');
    expect(messages).toContain('Flux API discovery failed, using default');
    // In this order; warnings of parts still retrying the dead servers may interleave.
    const lifecycle = ['listening', 'shutting down', 'draining', 'server stopped'];
    expect(messages.filter((m) => lifecycle.includes(m as string))).toEqual(lifecycle);
    expect(messages.filter((m) => m === 'list or watch failed; retrying')).toHaveLength(1);
    expect(lines[0]).toMatchObject({ listen: '127.0.0.1:0', identity: 'serviceAccount', skillsGithubToken: 'set' });
    const listening = lines.find((l) => l.msg === 'listening')!;
    expect(listening.address).toMatch(/^127\.0\.0\.1:\d+$/);
    // How long the start took, from the process's own start.
    expect(Number.isInteger(listening.startupMs)).toBe(true);
    expect(listening.startupMs).toBeGreaterThan(0);
    expect(JSON.stringify(lines)).not.toContain('ghp_do_not_log');
    expect(JSON.stringify(lines)).not.toContain('not-a-real-token');
  });

  it('warns at start, naming the risk, when it listens beyond loopback without OAuth, and not on loopback', async () => {
    const warnings = async (listen: string): Promise<Array<Record<string, unknown>>> => {
      const lines: Array<Record<string, unknown>> = [];
      const destination = new Writable({
        write(chunk: Buffer, _enc, done) {
          for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
          done();
        },
      });
      await start(config([`--listen=${listen}`]), createLogger({ destination }));
      await current!.close();
      current = undefined;
      return lines.filter((l) => typeof l.msg === 'string' && l.msg.startsWith('OAuth is off'));
    };
    const open = await warnings('0.0.0.0:0');
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({ level: 'warn', address: expect.stringMatching(/^0\.0\.0\.0:\d+$/) });
    expect(open[0]!.msg).toContain('every caller that reaches it can create, change and delete agents as its Kubernetes identity');
    expect(await warnings('127.0.0.1:0')).toEqual([]);
  });

  it('fails startup with the listener\'s error when the address is taken', async () => {
    const { base } = await start();
    const port = new URL(base).port;
    const second = runServe(config([`--listen=127.0.0.1:${port}`]), silentLogger(), { stop: new Promise(() => {}) });
    await expect(second).rejects.toMatchObject({
      name: 'ListenError', exitCode: 2, flag: '--listen',
      message: `--listen 127.0.0.1:${port}: the address is already in use; stop what holds it or choose another address with --listen`,
    });
  });
});
