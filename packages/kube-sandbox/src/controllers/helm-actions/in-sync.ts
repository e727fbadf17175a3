/**
 * A release in sync with its deployed revision (also after values went back to it following a
 * failed upgrade): nothing runs; Stalled and Reconciling go, and Ready/Released say what succeeded.
 */
import type { JsonObject } from '../../api/json.js';
import { CHART_NAME } from '../agent-chart.js';
import { metadata } from '../work-loop.js';
import { conditionsIn } from '../helm-release-state.js';
import { MANAGER, releaseNameOf } from '../helm-apply.js';
import { removeConditions, writeStatus } from '../status-helpers.js';
import { forGeneration, HR, obj, setAll, str, type Reconcile } from './common.js';

export function inSync({ ctx, hr, status, generation }: Reconcile, deployed: JsonObject, chartVersion: string): void {
  status.lastAttemptedGeneration = generation;
  let conditions = forGeneration(removeConditions(conditionsIn(status), 'Stalled', 'Reconciling'), generation);
  if (conditions.find((c) => c.type === 'Ready')?.status !== 'True') {
    const Done = deployed.action === 'upgrade' ? 'Upgrade' : 'Install';
    const targetNamespace = str(obj(hr.spec).targetNamespace) || String(metadata(hr).namespace);
    const message = `Helm ${Done.toLowerCase()} succeeded for release ` +
      `${targetNamespace}/${releaseNameOf(hr)}.v${String(deployed.version)} with chart ${CHART_NAME}@${chartVersion}`;
    conditions = setAll(conditions, ['Ready', 'Released'],
      { status: 'True', reason: `${Done}Succeeded`, message, observedGeneration: generation });
  }
  writeStatus(ctx.store, HR, hr, { ...status, observedGeneration: generation, conditions }, MANAGER);
}
