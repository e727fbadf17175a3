/**
 * Reads one file out of a packaged Helm chart (`.tgz`): gunzip and untar in memory with a
 * size cap, never touching the disk. Trust boundary: the archive comes from a registry, so
 * its size is bounded before and after decompression (a gzip bomb stops at the cap) and
 * entry paths are only compared, never used as file names.
 */
import { asObject, isJsonObject } from '../core/json.js';
import { quotable } from './http-body.js';
import { gunzip } from 'node:zlib';
import { promisify } from 'node:util';
import { Parser, type ReadEntry } from 'tar';

/** The largest chart archive read, compressed and uncompressed alike. */
export const MAX_CHART_ARCHIVE_BYTES = 8 * 1024 * 1024;

const gunzipAsync = promisify(gunzip);

/**
 * The parsed `<chartName>/values.schema.json` of a chart archive (a leading `./` on entry
 * paths is tolerated). Throws `<chart>/values.schema.json not found in chart archive` when
 * it is missing, and a sentence naming the problem for a broken or oversized archive.
 */
export async function readValuesSchema(
  archive: Uint8Array,
  chartName: string,
  maxBytes = MAX_CHART_ARCHIVE_BYTES,
): Promise<Record<string, unknown>> {
  const wanted = `${chartName}/values.schema.json`;
  const text = await readArchiveFile(archive, wanted, maxBytes);
  if (text === undefined) throw new Error(`${wanted} not found in chart archive`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    const reason = quotable(err instanceof Error ? err.message : String(err));
    throw new Error(`${wanted} in the chart archive is not valid JSON: ${reason}`,
      { cause: err });
  }
  if (!isJsonObject(parsed)) throw new Error(`${wanted} in the chart archive is not a JSON object`);
  return parsed;
}

/** The UTF-8 text of the regular file at `path` inside a tar+gzip archive, or undefined. */
export async function readArchiveFile(
  archive: Uint8Array, path: string, maxBytes = MAX_CHART_ARCHIVE_BYTES,
): Promise<string | undefined> {
  if (archive.byteLength > maxBytes) throw new Error(`chart archive is larger than ${mib(maxBytes)}`);
  let tarBytes: Buffer;
  try {
    tarBytes = await gunzipAsync(archive, { maxOutputLength: maxBytes });
  } catch (err) {
    if (err instanceof RangeError || asObject(err).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new Error(`chart archive is larger than ${mib(maxBytes)} uncompressed`, { cause: err });
    }
    throw new Error(`chart archive is not gzip: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  return findEntry(tarBytes, path);
}

function findEntry(tarBytes: Buffer, path: string): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    let found: Promise<string> | undefined;
    const parser = new Parser({
      strict: true,
      onReadEntry: (entry: ReadEntry) => {
        const name = entry.path.replace(/^(\.\/)+/, '');
        if (found === undefined && name === path && isRegularFile(entry)) {
          found = entry.concat().then((data) => data.toString('utf8'));
        } else {
          entry.resume();
        }
      },
    });
    parser.on('error', (err: Error) => reject(new Error(`chart archive is not a valid tar: ${err.message}`)));
    parser.on('end', () => {
      if (found) found.then(resolve, reject);
      else resolve(undefined);
    });
    parser.end(tarBytes);
  });
}

function isRegularFile(entry: ReadEntry): boolean {
  return entry.type === 'File' || entry.type === 'OldFile' || entry.type === 'ContiguousFile';
}

function mib(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}
