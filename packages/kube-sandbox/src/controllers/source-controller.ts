/**
 * A stand-in for Flux's source-controller, for OCIRepositories of the agent chart: the simulated
 * registry holds a few chart versions; the reference (`digest` > `semver` > `tag`, default `latest`)
 * picks one and the artifact's revision reads like the real one (`2.1.0@sha256:…`), or `Ready` False
 * `ReadOperationFailed` when nothing matches. Honours `finalizers.fluxcd.io` and `spec.suspend`.
 */
import semver from 'semver';
import { isObject, nowTimestamp, type JsonObject } from '../api/json.js';
import { Controller, finalizersOf, metadata, type ControllerContext } from './work-loop.js';
import { conditionsOf, setCondition, sha256Hex, writeStatus, type Condition } from './status-helpers.js';

/** The finalizer Flux's controllers put on the objects they reconcile. */
export const FLUX_FINALIZER = 'finalizers.fluxcd.io';

/**
 * The chart versions the simulated registry holds under any URL, oldest first: the 0.x line
 * (a `kagent.dev/v1alpha2` Agent) and the current 2.x line (an `api.kagent.dev/v1alpha3` Agent on a
 * Harness; 2.1.0 adds `agent.egress`). A range admitting both, such as `x.x.x` or `*`, picks 2.1.0.
 */
export const SIMULATED_CHART_VERSIONS: readonly string[] = ['0.5.2', '0.6.0', '0.6.1', '2.0.0', '2.1.0'];

const MANAGER = 'source-controller';
const RESOURCE = 'ocirepositories';

/** The manifest digest (hex) the simulated registry serves for a URL and version. */
export function manifestDigest(url: string, version: string): string {
  return sha256Hex(`manifest:${url}:${version}`);
}

/** The version a reference selects, or an error message in Flux's words. */
function resolve(url: string, ref: JsonObject): { version: string; revision: string } | { error: string } {
  if (typeof ref.digest === 'string' && ref.digest) {
    return { version: SIMULATED_CHART_VERSIONS.at(-1)!, revision: ref.digest };
  }
  if (typeof ref.semver === 'string' && ref.semver) {
    const range = semver.validRange(ref.semver, { loose: true });
    const matching = range ? SIMULATED_CHART_VERSIONS.filter((v) => semver.satisfies(v, range)) : [];
    const version = matching.at(-1);
    if (!version) {
      return { error: `failed to determine the artifact tag for '${url}': no match found for semver: ${ref.semver}` };
    }
    return { version, revision: `${version}@sha256:${manifestDigest(url, version)}` };
  }
  const tag = typeof ref.tag === 'string' && ref.tag ? ref.tag : 'latest';
  const version = SIMULATED_CHART_VERSIONS.includes(tag) ? tag : SIMULATED_CHART_VERSIONS.at(-1)!;
  return { version, revision: `${tag}@sha256:${manifestDigest(url, version)}` };
}

/** One reconcile of an OCIRepository (exported for seeding installed releases synchronously). */
export function reconcileOciRepository(ctx: Pick<ControllerContext, 'store'>, namespace: string, name: string): void {
  const { store } = ctx;
  const repo = store.find(RESOURCE, namespace, name);
  if (!repo) return;
  const meta = metadata(repo);
  if (meta.deletionTimestamp) {
    if (finalizersOf(repo).includes(FLUX_FINALIZER)) {
      store.update(
        RESOURCE,
        {
          ...structuredClone(repo),
          metadata: { ...meta, finalizers: finalizersOf(repo).filter((f) => f !== FLUX_FINALIZER) },
        },
        { fieldManager: MANAGER },
      );
    }
    return;
  }
  const spec = isObject(repo.spec) ? repo.spec : {};
  if (spec.suspend === true) return;
  if (!finalizersOf(repo).includes(FLUX_FINALIZER)) {
    store.update(
      RESOURCE,
      { ...structuredClone(repo), metadata: { ...meta, finalizers: [...finalizersOf(repo), FLUX_FINALIZER] } },
      { fieldManager: MANAGER },
    );
    return;
  }
  const url = String(spec.url ?? '');
  const generation = Number(meta.generation ?? 1);
  const old = isObject(repo.status) ? repo.status : {};
  const picked = resolve(url, isObject(spec.ref) ? spec.ref : {});
  let conditions: Condition[] = conditionsOf(repo);
  const status: JsonObject = { ...old, observedGeneration: generation };
  if ('error' in picked) {
    conditions = setCondition(conditions,
      { type: 'FetchFailed', status: 'True', reason: 'ReadOperationFailed', message: picked.error,
        observedGeneration: generation });
    conditions = setCondition(conditions,
      { type: 'Ready', status: 'False', reason: 'ReadOperationFailed', message: picked.error,
        observedGeneration: generation });
    return void writeStatus(store, RESOURCE, repo, { ...status, conditions }, MANAGER);
  }
  const oldArtifact = isObject(old.artifact) ? old.artifact : undefined;
  const tarball = sha256Hex(`tarball:${picked.revision}`);
  const path = `ocirepository/${namespace}/${name}/${tarball}.tar.gz`;
  const artifact: JsonObject = oldArtifact && oldArtifact.revision === picked.revision ? oldArtifact : {
    digest: `sha256:${tarball}`, lastUpdateTime: nowTimestamp(), path, revision: picked.revision, size: 4096,
    url: `http://source-controller.flux-system.svc.cluster.local./${path}`,
    metadata: { 'org.opencontainers.image.version': picked.version,
      'org.opencontainers.image.source': url.replace(/^oci:\/\//, 'https://') },
  };
  const message = `stored artifact for digest '${picked.revision}'`;
  conditions = conditions.filter((c) => c.type !== 'FetchFailed' && c.type !== 'Reconciling');
  conditions = setCondition(conditions, { type: 'Ready', status: 'True', reason: 'Succeeded', message,
    observedGeneration: generation });
  conditions = setCondition(conditions, { type: 'ArtifactInStorage', status: 'True', reason: 'Succeeded', message,
    observedGeneration: generation });
  writeStatus(store, RESOURCE, repo, { ...status, artifact, url: artifact.url, conditions }, MANAGER);
}

/** Start the source-controller over every OCIRepository. */
export function startSourceController(ctx: ControllerContext): Controller {
  return new Controller(MANAGER, ctx, (ns, name) => reconcileOciRepository(ctx, ns, name))
    .watch(RESOURCE)
    .resync(RESOURCE);
}
