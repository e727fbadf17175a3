/**
 * What a write reads that depends on the chart line, in the same round as its other reads: the ModelConfigs of
 * both kagent groups (chart 0.x's Agents use kagent.dev's, 2.x's api.kagent.dev's) and the namespace's Harnesses.
 * The line is only known once the namespace's source is read in that round, so both are read and the line picks.
 * A group the cluster does not serve has none; a read the caller may not make fails only the write that needs it
 * (a caller without api.kagent.dev reads can still write agents of chart 0.x), with the API server's own 403.
 */
import type { ChartLine } from '../../core/chart-lines/major-line.js';
import { isAppError } from '../../core/errors.js';
import type { Harness } from '../../core/types.js';
import type { Gvr, KubeObject, KubePort } from '../ports.js';
import type { OperationEnv } from '../operation-env.js';
import { readHarnesses } from './harnesses.js';

export interface LineCatalog {
  modelConfigs(line: ChartLine): KubeObject[];
  /** The namespace's Harnesses an agent of `line` may run on: none on 0.x, which has no Harness. */
  harnesses(line: ChartLine): Harness[];
}

/**
 * A read's answer, or its 403 kept for whoever needs the answer: a caller may lack the reads of the line a write
 * does not use. Any other failure (the API server failing, a timeout) fails the write at once, as every read of its
 * round does, so a write never goes ahead on a round that failed.
 */
async function settle<T>(read: Promise<T>): Promise<() => T> {
  try {
    const value = await read;
    return () => value;
  } catch (err) {
    if (!isAppError(err, 'forbidden')) throw err;
    return () => { throw err; };
  }
}

async function listServed(kube: KubePort, type: Gvr | undefined, namespace: string): Promise<KubeObject[]> {
  if (!type) return [];
  try {
    return await kube.list(type, namespace);
  } catch (err) {
    if (isAppError(err, 'not_found')) return [];
    throw err;
  }
}

/** The ModelConfigs and Harnesses of a namespace, for whichever line its source turns out to follow. */
export async function readLineCatalog(env: OperationEnv, kube: KubePort, namespace: string): Promise<LineCatalog> {
  const [v1, v2, harnesses] = await Promise.all([
    settle(kube.list(env.types.modelConfig, namespace)),
    settle(listServed(kube, env.types.modelConfigV2, namespace)),
    settle(readHarnesses(env, kube, namespace)),
  ]);
  return {
    modelConfigs: (line) => (line === '2.x' && env.types.modelConfigV2 ? v2() : v1()),
    harnesses: (line) => (line === '2.x' ? harnesses() : []),
  };
}

/** The Harnesses of `line` in a namespace: the catalog's when the round read one, else read now (none on 0.x). */
export async function lineHarnesses(
  env: OperationEnv, kube: KubePort, namespace: string, line: ChartLine, catalog: LineCatalog | undefined,
): Promise<Harness[]> {
  if (catalog) return catalog.harnesses(line);
  return line === '2.x' ? readHarnesses(env, kube, namespace) : [];
}
