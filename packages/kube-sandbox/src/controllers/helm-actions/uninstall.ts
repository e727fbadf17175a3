/**
 * Uninstall, then let the object go. A suspended release is let go without uninstalling, as Flux
 * does; so is a release on another cluster that was never installed (no storage namespace in its
 * status) or whose kubeconfig Secret is gone (no client to uninstall with). Any other failure to
 * reach that cluster keeps the finalizer: Ready False `UninstallFailed`, and the uninstall is tried again.
 */
import { asList, isObject, type JsonObject } from '../../api/json.js';
import { finalizersOf, metadata } from '../work-loop.js';
import { deleteOwned, inventoryObjects, MANAGER, releaseNameOf } from '../helm-apply.js';
import { deleteRelease } from '../helm-storage.js';
import type { ReleaseTarget } from '../remote-cluster.js';
import { FLUX_FINALIZER } from '../source-controller.js';
import { asConditions, recordEvent, setCondition, subjectOf, writeStatus } from '../status-helpers.js';
import { HR, obj, storageNamespaceOf, str, targetOf, UNREACHABLE_RETRY_MS, type ActionContext } from './common.js';
import { removeFinalizer } from './finalizer.js';

export function uninstall(ctx: ActionContext, hr: JsonObject): number | void {
  if (!finalizersOf(hr).includes(FLUX_FINALIZER)) return;
  const remote = isObject(obj(hr.spec).kubeConfig);
  const installed = !remote || str(obj(hr.status).storageNamespace) !== '';
  if (obj(hr.spec).suspend !== true && installed) {
    const target = targetOf(ctx.store, hr);
    if (!target.ok && !(target.phase === 'client' && target.secretMissing)) return uninstallFailed(ctx, hr, target);
    if (target.ok) deleteInstalled(ctx, hr, target);
    else {
      ctx.log?.info?.({ controller: MANAGER,
        helmRelease: `${String(metadata(hr).namespace)}/${String(metadata(hr).name)}`, reason: target.message },
      'helm-controller: skipping Helm release uninstallation');
    }
  }
  removeFinalizer(ctx, hr);
}

/** The cluster could not be reached: Ready False `UninstallFailed`, tried again later. */
function uninstallFailed(ctx: ActionContext, hr: JsonObject, target: ReleaseTarget & { ok: false }): number {
  const message = target.phase === 'client'
    ? `failed to build REST client getter to uninstall release: ${target.message}`
    : `Helm uninstall failed for release ${str(obj(hr.spec).targetNamespace) || String(metadata(hr).namespace)}/` +
      `${releaseNameOf(hr)}: ${target.message}`;
  const generation = Number(metadata(hr).generation ?? 1);
  const conditions = setCondition(
    asConditions(asList(obj(hr.status).conditions)),
    { type: 'Ready', status: 'False', reason: 'UninstallFailed', message, observedGeneration: generation },
  );
  writeStatus(ctx.store, HR, hr, { ...obj(hr.status), conditions }, MANAGER);
  return UNREACHABLE_RETRY_MS;
}

/** What the release installed is deleted, and on another cluster Helm's records of it. */
function deleteInstalled(ctx: ActionContext, hr: JsonObject, target: ReleaseTarget & { ok: true }): void {
  for (const o of inventoryObjects(hr)) deleteOwned(target.store, hr, o);
  if (target.server) {
    deleteRelease(target.store, str(obj(hr.status).storageNamespace) || storageNamespaceOf(hr), releaseNameOf(hr));
  }
  if (inventoryObjects(hr).length > 0) {
    const helmRelease = `${String(metadata(hr).namespace)}/${String(metadata(hr).name)}`;
    ctx.log?.info?.({ controller: MANAGER, helmRelease }, 'helm-controller: uninstalled');
    recordEvent(ctx.store, subjectOf(hr), 'Normal', 'UninstallSucceeded',
      `Helm uninstall succeeded for release ${String(metadata(hr).namespace)}/${releaseNameOf(hr)}`, MANAGER);
  }
}
