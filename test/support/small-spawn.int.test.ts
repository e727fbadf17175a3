import { describe, expect, it } from 'vitest';
import { smallSpawn } from './small-spawn.js';

describe('smallSpawn', () => {
  it('runs a command with its stdin and hands back the exit code and exact bytes of stdout', async () => {
    const bytes = Buffer.from([0, 1, 2, 255, 10, 13]);
    const run = await smallSpawn('cat', [], { input: bytes });
    expect(run.code).toBe(0);
    expect(run.stdout.equals(bytes)).toBe(true);
  });

  it('passes the arguments without a shell and the environment as given', async () => {
    const run = await smallSpawn('sh', ['-c', 'printf "%s|%s" "$1" "$GREETING"; echo oops >&2; exit 3', 'sh', '$HOME; rm -rf /'], { env: { PATH: process.env.PATH, GREETING: 'hi' } });
    expect({ code: run.code, stdout: run.stdout.toString(), stderr: run.stderr.toString() }).toEqual({ code: 3, stdout: '$HOME; rm -rf /|hi', stderr: 'oops\n' });
  });

  it('says why a command could not start', async () => {
    const run = await smallSpawn('/nonexistent/command', []);
    expect(run).toMatchObject({ code: null, error: 'ENOENT' });
  });

  it('kills a command that outlasts its timeout', async () => {
    const run = await smallSpawn('sleep', ['30'], { timeoutMs: 50 });
    expect(run.code).toBeNull();
  });
});
