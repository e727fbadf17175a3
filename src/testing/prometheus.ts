/**
 * The real Prometheus for tests: Debian's `prometheus` package (server and `promtool`).
 * `promtool(args, stdin)` runs the checker; `startPrometheus(targets)` runs a server on 127.0.0.1
 * port 0 (it logs the port it got, so no other process can take it first) with temp storage,
 * scraping the targets, and `query` asks its HTTP API. `prometheusTestMode()` says whether suites
 * run: they skip (with the reason) when the binaries are absent on a developer machine, and fail
 * in CI (`CI=true`), where scripts/test-setup.mjs installs them.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testTool, toolTestMode } from './test-tools.js';

/** `run`, `skip` (binaries absent, not CI) or `fail` (absent in CI), with the reason. */
export function prometheusTestMode(): { mode: 'run' | 'skip' | 'fail'; reason: string } {
  return toolTestMode(['prometheus', 'promtool'], 'apt-get install -y prometheus');
}

/** promtool's exit status and output. */
export function promtool(args: readonly string[], stdin?: string): { status: number | null; output: string } {
  const run = spawnSync(testTool('promtool') ?? 'promtool', [...args], { input: stdin, encoding: 'utf8', timeout: 60_000 });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

export interface RunningPrometheus {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** The result vector of an instant query. */
  query(expr: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]>;
  close(): Promise<void>;
}

export interface PrometheusOptions {
  /** How often it scrapes (a Prometheus duration); default 1s. */
  scrapeInterval?: string;
  /** Labels every scraped series gets, as a ServiceMonitor's target labels (`namespace`). */
  labels?: Record<string, string>;
}

/** Starts Prometheus scraping `targets` (`host:port`, path /metrics), job `agent-manager`. */
export async function startPrometheus(
  targets: readonly string[], options: PrometheusOptions = {},
): Promise<RunningPrometheus> {
  const dir = mkdtempSync(join(tmpdir(), 'agent-manager-prometheus-'));
  const config = join(dir, 'prometheus.yml');
  const interval = options.scrapeInterval ?? '1s';
  writeFileSync(config, JSON.stringify({
    global: { scrape_interval: interval, scrape_timeout: interval, evaluation_interval: interval },
    scrape_configs: [{ job_name: 'agent-manager', static_configs: [{ targets, labels: options.labels ?? {} }] }],
  }));
  const child: ChildProcess = spawn(testTool('prometheus') ?? 'prometheus', [
    `--config.file=${config}`, `--storage.tsdb.path=${join(dir, 'data')}`, '--web.listen-address=127.0.0.1:0', '--log.level=info',
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  // Prometheus logs `msg="Listening on" address=127.0.0.1:<port>` once its listener is open.
  let url = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-8192);
    const address = url === '' ? /msg="Listening on" address=(127\.0\.0\.1:\d+)/.exec(output)?.[1] : undefined;
    if (address) url = `http://${address}`;
  });
  const killOnExit = (): void => {
    child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  const close = async (): Promise<void> => {
    process.off('exit', killOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) {
      await close();
      throw new Error(`prometheus exited (${child.exitCode}) before it was ready: ${output}`);
    }
    const ready = url !== '' && await fetch(`${url}/-/ready`).then((r) => r.ok, () => false);
    if (ready) break;
    if (Date.now() > deadline) {
      await close();
      throw new Error(`prometheus was not ready within 30s: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    close,
    async query(expr) {
      const res = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(expr)}`);
      const body = (await res.json()) as {
        status: string;
        data?: { result?: { metric: Record<string, string>; value: [number, string] }[] };
      };
      if (body.status !== 'success') throw new Error(`query ${expr}: ${JSON.stringify(body)}`);
      return body.data?.result ?? [];
    },
  };
}
