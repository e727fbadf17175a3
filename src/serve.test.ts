import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig, type AppConfig } from './config/index.js';
import { Writable } from 'node:stream';
import { createLogger, silentLogger, type Logger } from './log/logger.js';
import { runServe } from './serve.js';

function config(env: Record<string, string> = {}): AppConfig {
  const r = parseConfig(['serve', '--listen=127.0.0.1:0', '--metrics-listen='], env);
  if (r.kind !== 'serve') throw new Error(JSON.stringify(r));
  return r.config;
}

describe('runServe (first version)', () => {
  let stop: (() => void) | undefined;
  let running: Promise<void> | undefined;

  afterEach(async () => {
    stop?.();
    await running;
    stop = undefined;
    running = undefined;
  });

  async function start(cfg = config(), log: Logger = silentLogger()): Promise<string> {
    const stopped = new Promise<void>((resolve) => { stop = resolve; });
    const address = await new Promise<AddressInfo>((resolve, reject) => {
      running = runServe(cfg, log, { stop: stopped, onListening: resolve });
      running.catch(reject);
    });
    return `http://127.0.0.1:${address.port}`;
  }

  it.each(['/healthz', '/readyz'])('answers GET %s with 200 ok in text/plain', async (path) => {
    const base = await start();
    const res = await fetch(`${base}${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toBe('ok');
  });

  it('answers 404 elsewhere', async () => {
    const base = await start();
    const res = await fetch(`${base}/nope`);
    expect(res.status).toBe(404);
    await res.text();
  });

  it('stops listening once asked to stop', async () => {
    const base = await start();
    stop!();
    await running;
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
  });

  it('logs agent-manager starting with the redacted summary, listening, and server stopped', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const destination = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    await start(config({ GITHUB_TOKEN: 'ghp_do_not_log' }), createLogger({ destination }));
    stop!();
    await running;
    expect(lines.map((l) => l.msg)).toEqual(['agent-manager starting', 'listening', 'shutting down', 'server stopped']);
    expect(lines[0]).toMatchObject({ listen: '127.0.0.1:0', identity: 'serviceAccount', skillsGithubToken: 'set' });
    expect(lines[1]!.address).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(JSON.stringify(lines)).not.toContain('ghp_do_not_log');
  });
});
