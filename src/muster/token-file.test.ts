import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMusterToken } from './token-file.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'muster-token-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('readMusterToken', () => {
  it('reads the token trimmed, again on every call (a rotated token is picked up)', async () => {
    const path = join(dir, 'token');
    await writeFile(path, 'first\n');
    expect(await readMusterToken(path)).toEqual({ token: 'first' });
    await writeFile(path, 'second');
    expect(await readMusterToken(path)).toEqual({ token: 'second' });
  });

  it('gives no token for a missing or empty file, naming the path and never a token', async () => {
    expect(await readMusterToken(join(dir, 'missing'))).toEqual({
      problem: `--muster-token-file ${join(dir, 'missing')} cannot be read (ENOENT)` });
    await writeFile(join(dir, 'empty'), ' \n');
    expect(await readMusterToken(join(dir, 'empty'))).toEqual({ problem: `--muster-token-file ${join(dir, 'empty')} is empty` });
  });
});
