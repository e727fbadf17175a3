import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readArchiveFile, readValuesSchema } from './chart-archive.js';
import { chartArchive, tarGz } from '../../test/support/chart/push-chart.js';

describe('readValuesSchema', () => {
  it('parses <chart>/values.schema.json out of a packaged chart', async () => {
    const archive = chartArchive({ name: 'agent', version: '0.6.0', schema: { type: 'object', title: 't' } });
    expect(await readValuesSchema(archive, 'agent')).toEqual({ type: 'object', title: 't' });
  });

  it('tolerates a leading ./ on entry paths', async () => {
    const archive = chartArchive({ name: 'agent', version: '0.6.0', schema: { title: 'dot' }, dotSlash: true });
    expect(await readValuesSchema(archive, 'agent')).toEqual({ title: 'dot' });
  });

  it('looks in the directory named after the chart only', async () => {
    const archive = chartArchive({ name: 'other', version: '1.0.0', schema: { title: 'x' } });
    await expect(readValuesSchema(archive, 'agent')).rejects.toThrow('agent/values.schema.json not found in chart archive');
  });

  it('ignores a schema nested in a subchart', async () => {
    const archive = tarGz([{ path: 'agent/charts/sub/values.schema.json', content: '{}' }]);
    await expect(readValuesSchema(archive, 'agent')).rejects.toThrow('agent/values.schema.json not found in chart archive');
  });

  it('takes only a regular file, not a symlink of that name', async () => {
    const archive = tarGz([{ path: 'agent/values.schema.json', type: 'SymbolicLink', linkpath: '/etc/passwd' }]);
    await expect(readValuesSchema(archive, 'agent')).rejects.toThrow('not found in chart archive');
  });

  it('says when the schema is not JSON or not an object', async () => {
    await expect(readValuesSchema(tarGz([{ path: 'agent/values.schema.json', content: '{nope' }]), 'agent')).rejects.toThrow(
      /^agent\/values.schema.json in the chart archive is not valid JSON: /,
    );
    await expect(readValuesSchema(tarGz([{ path: 'agent/values.schema.json', content: '[1]' }]), 'agent')).rejects.toThrow(
      'agent/values.schema.json in the chart archive is not a JSON object',
    );
  });

  it('refuses an archive larger than the cap, compressed or not', async () => {
    const big = tarGz([{ path: 'agent/values.yaml', content: Buffer.alloc(64 * 1024) }, { path: 'agent/values.schema.json', content: '{}' }]);
    await expect(readValuesSchema(big, 'agent', 16 * 1024)).rejects.toThrow('chart archive is larger than 16384 bytes uncompressed');
    await expect(readValuesSchema(Buffer.alloc(2048), 'agent', 1024)).rejects.toThrow('chart archive is larger than 1024 bytes');
  });

  it('stops a gzip bomb at the cap', async () => {
    const bomb = gzipSync(Buffer.alloc(32 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(64 * 1024);
    await expect(readArchiveFile(bomb, 'agent/values.schema.json')).rejects.toThrow('chart archive is larger than 8 MiB uncompressed');
  });

  it('says when the blob is not gzip or not tar', async () => {
    await expect(readArchiveFile(Buffer.from('plain text'), 'x')).rejects.toThrow(/^chart archive is not gzip: /);
    await expect(readArchiveFile(gzipSync(Buffer.from('not a tar archive at all'.repeat(40))), 'x')).rejects.toThrow(
      /^chart archive is not a valid tar: /,
    );
  });
});
