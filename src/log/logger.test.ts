import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { eventually } from '../../test/support/eventually.js';
import { batchedDestination, createLogger } from './logger.js';

function capture(): { stream: Writable; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      chunks.push(String(chunk));
      cb();
    },
  });
  return { stream, lines: () => chunks.join('').trim().split('\n').map((l) => JSON.parse(l)) };
}

describe('the root logger', () => {
  it('writes JSON lines and redacts bearer tokens and authorization headers', () => {
    const out = capture();
    const log = createLogger({ destination: out.stream });
    log.info({ req: { headers: { authorization: 'Bearer eyJsecret' } }, token: 'abc', nested: { token: 'def' } }, 'hello');
    const [line] = out.lines();
    expect(line.msg).toBe('hello');
    expect(line.level).toBe('info');
    expect(JSON.stringify(line)).not.toContain('eyJsecret');
    expect(JSON.stringify(line)).not.toContain('abc');
    expect(JSON.stringify(line)).not.toContain('def');
  });

  it('redacts the caller\'s GitHub token (X-GitHub-Token) wherever a log object carries it', () => {
    const out = capture();
    createLogger({ destination: out.stream }).info({ req: { headers: { 'x-github-token': 'ghp_secret1' } }, githubToken: 'ghp_secret2' }, 'commit');
    expect(JSON.stringify(out.lines())).not.toMatch(/ghp_secret/);
  });

  it('logs debug only when verbose', () => {
    const quiet = capture();
    createLogger({ destination: quiet.stream }).debug('hidden');
    expect(quiet.lines).toThrow();
    const loud = capture();
    createLogger({ destination: loud.stream, verbose: true }).debug('shown');
    expect(loud.lines()[0].msg).toBe('shown');
  });

  it('writes lines in batches, each within the flush interval, and at once when flushed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'am-log-'));
    const path = join(dir, 'log');
    const fd = openSync(path, 'w');
    const destination = batchedDestination(fd);
    try {
      const log = pino({ base: undefined }, destination);
      log.info('first');
      log.info('second');
      // Waiting for 4 KiB or the timer: nothing yet on the descriptor.
      expect(readFileSync(path, 'utf8')).toBe('');
      const written = await eventually(() => {
        const text = readFileSync(path, 'utf8');
        return text.includes('second') ? text : undefined;
      }, 5_000, 'the batch reaching the file');
      expect(written.trim().split('\n').map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(['first', 'second']);
      log.info('third');
      log.flush();
      await eventually(() => (readFileSync(path, 'utf8').includes('third') ? true : undefined), 1_000, 'the flushed line');
    } finally {
      // Destroying it stops the flush timer and closes the descriptor.
      (destination as unknown as { destroy(): void }).destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
