/**
 * Flux's finalizer on a HelmRelease: added before anything else (also on a suspended release), so
 * a deletion waits for the uninstall; removed once the release is uninstalled or let go.
 */
import type { JsonObject } from '../../api/json.js';
import { finalizersOf, metadata } from '../work-loop.js';
import { MANAGER } from '../helm-apply.js';
import { FLUX_FINALIZER } from '../source-controller.js';
import { HR, type ActionContext } from './common.js';

/** `hr` with the finalizers `change` makes of its own, written as the helm-controller. */
function writeFinalizers(ctx: ActionContext, hr: JsonObject, change: (list: string[]) => string[]): void {
  ctx.store.update(
    HR,
    { ...structuredClone(hr), metadata: { ...structuredClone(metadata(hr)), finalizers: change(finalizersOf(hr)) } },
    { fieldManager: MANAGER },
  );
}

export function addFinalizer(ctx: ActionContext, hr: JsonObject): void {
  writeFinalizers(ctx, hr, (list) => [...list, FLUX_FINALIZER]);
}

export function removeFinalizer(ctx: ActionContext, hr: JsonObject): void {
  writeFinalizers(ctx, hr, (list) => list.filter((f) => f !== FLUX_FINALIZER));
}
