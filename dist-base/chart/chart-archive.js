/**
 * Reads one file out of a packaged Helm chart (`.tgz`): gunzip and untar in memory with a
 * size cap, never touching the disk. Trust boundary: the archive comes from a registry, so
 * its size is bounded before and after decompression (a gzip bomb stops at the cap) and
 * entry paths are only compared, never used as file names.
 */
import { quotable } from './http-body.js';
import { gunzip } from 'node:zlib';
import { promisify } from 'node:util';
import { Parser } from 'tar';
/** The largest chart archive read, compressed and uncompressed alike. */
export const MAX_CHART_ARCHIVE_BYTES = 8 * 1024 * 1024;
const gunzipAsync = promisify(gunzip);
/**
 * The parsed `<chartName>/values.schema.json` of a chart archive (a leading `./` on entry
 * paths is tolerated). Throws `<chart>/values.schema.json not found in chart archive` when
 * it is missing, and a sentence naming the problem for a broken or oversized archive.
 */
export async function readValuesSchema(archive, chartName, maxBytes = MAX_CHART_ARCHIVE_BYTES) {
    const wanted = `${chartName}/values.schema.json`;
    const text = await readArchiveFile(archive, wanted, maxBytes);
    if (text === undefined)
        throw new Error(`${wanted} not found in chart archive`);
    let parsed;
    try {
        parsed = JSON.parse(text);
    }
    catch (err) {
        throw new Error(`${wanted} in the chart archive is not valid JSON: ${quotable(err.message)}`, { cause: err });
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        throw new Error(`${wanted} in the chart archive is not a JSON object`);
    }
    return parsed;
}
/** The UTF-8 text of the regular file at `path` inside a tar+gzip archive, or undefined. */
export async function readArchiveFile(archive, path, maxBytes = MAX_CHART_ARCHIVE_BYTES) {
    if (archive.byteLength > maxBytes)
        throw new Error(`chart archive is larger than ${mib(maxBytes)}`);
    let tarBytes;
    try {
        tarBytes = await gunzipAsync(archive, { maxOutputLength: maxBytes });
    }
    catch (err) {
        if (err instanceof RangeError || err.code === 'ERR_BUFFER_TOO_LARGE') {
            throw new Error(`chart archive is larger than ${mib(maxBytes)} uncompressed`, { cause: err });
        }
        throw new Error(`chart archive is not gzip: ${err.message}`, { cause: err });
    }
    return findEntry(tarBytes, path);
}
function findEntry(tarBytes, path) {
    return new Promise((resolve, reject) => {
        let found;
        const parser = new Parser({
            strict: true,
            onReadEntry: (entry) => {
                const name = entry.path.replace(/^(\.\/)+/, '');
                if (found === undefined && name === path && isRegularFile(entry)) {
                    found = entry.concat().then((data) => data.toString('utf8'));
                }
                else {
                    entry.resume();
                }
            },
        });
        parser.on('error', (err) => reject(new Error(`chart archive is not a valid tar: ${err.message}`)));
        parser.on('end', () => {
            if (found)
                found.then(resolve, reject);
            else
                resolve(undefined);
        });
        parser.end(tarBytes);
    });
}
function isRegularFile(entry) {
    return entry.type === 'File' || entry.type === 'OldFile' || entry.type === 'ContiguousFile';
}
function mib(bytes) {
    return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}
//# sourceMappingURL=chart-archive.js.map