/**
 * What helm rendered or linted for a set of values, kept on disk for the other workers of this
 * test run and for later runs of the same chart, helm and test code (the folder
 * test/global-setup/render-cache.ts names by a hash of those), keyed by a hash of the inputs.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { RENDER_CACHE_ENV } from '../global-setup/render-cache.js';

/** The run's render store (set by the global set-up), or undefined outside vitest. */
function storedPath(key: string): string | undefined {
  const dir = process.env[RENDER_CACHE_ENV];
  return dir ? join(dir, `${createHash('sha256').update(key).digest('hex')}.json`) : undefined;
}

export function readStored<T>(key: string): T | undefined {
  const path = storedPath(key);
  if (!path) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

export function writeStored(key: string, stored: unknown): void {
  const path = storedPath(key);
  if (!path) return;
  // Written whole, then renamed: a worker reading at the same moment sees all of it or nothing.
  // The folder is made again if it is gone (removed by hand while this run renders).
  mkdirSync(dirname(path), { recursive: true });
  const partial = `${path}.${process.pid}.tmp`;
  writeFileSync(partial, JSON.stringify(stored));
  renameSync(partial, path);
}
