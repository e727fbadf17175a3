/**
 * The real Prometheus for tests: Debian's `prometheus` package (server and `promtool`).
 * `promtool(args, stdin)` runs the checker; `startPrometheus(targets)` runs a server on 127.0.0.1
 * port 0 (it logs the port it got, so no other process can take it first) with temp storage,
 * scraping the targets (named at start or later), and `query` asks its HTTP API.
 * `prometheusTestMode()` says whether suites run: they skip (with the reason) when the binaries
 * are absent on a developer machine, and fail in CI (`CI=true`), where test-setup installs them.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testTool, toolTestMode } from './test-tools.js';

/** `run`, `skip` (binaries absent, not CI) or `fail` (absent in CI), with the reason. */
export function prometheusTestMode(): { mode: 'run' | 'skip' | 'fail'; reason: string } {
  return toolTestMode(['prometheus', 'promtool'], 'apt-get install -y prometheus');
}

/** promtool's exit status and output; run without Go's garbage collector, as it lives a moment. */
export function promtool(args: readonly string[], stdin?: string): { status: number | null; output: string } {
  const run = spawnSync(testTool('promtool') ?? 'promtool', [...args], {
    input: stdin, encoding: 'utf8', timeout: 60_000, env: { ...process.env, GOGC: 'off' },
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

export interface RunningPrometheus {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** The result vector of an instant query. */
  query(expr: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]>;
  /** Scrape these targets from now on, instead of the ones named before. */
  scrape(targets: readonly string[]): void;
  close(): Promise<void>;
}

export interface PrometheusOptions {
  /** How often it scrapes (a Prometheus duration); default 1s. */
  scrapeInterval?: string;
  /** Labels every scraped series gets, as a ServiceMonitor's target labels (`namespace`). */
  labels?: Record<string, string>;
}

/**
 * Starts Prometheus scraping `targets` (`host:port`, path /metrics), job `agent-manager`. Its
 * discovery hands targets to the scrapers on a fixed 5 s tick from the start, so the first
 * scrape comes about 5 s after this call whatever the interval: a suite starts it beside
 * what it will scrape, with no targets yet, and names them with `scrape` once they listen
 * (file-based discovery, which Prometheus reads when the file changes).
 */
export async function startPrometheus(
  targets: readonly string[], options: PrometheusOptions = {},
): Promise<RunningPrometheus> {
  const dir = mkdtempSync(join(tmpdir(), 'agent-manager-prometheus-'));
  const config = join(dir, 'prometheus.yml');
  const targetsFile = join(dir, 'targets.json');
  const interval = options.scrapeInterval ?? '1s';
  const scrape = (list: readonly string[]): void => {
    // Written whole, then renamed, so Prometheus never reads half a file.
    writeFileSync(`${targetsFile}.tmp`, JSON.stringify([{ targets: list, labels: options.labels ?? {} }]));
    renameSync(`${targetsFile}.tmp`, targetsFile);
  };
  scrape(targets);
  writeFileSync(config, JSON.stringify({
    global: { scrape_interval: interval, scrape_timeout: interval, evaluation_interval: interval },
    scrape_configs: [{ job_name: 'agent-manager', file_sd_configs: [{ files: [targetsFile] }] }],
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
    scrape,
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
