/**
 * As helm-controller patches the release before it runs a Helm action: the attempt is recorded
 * (lastAttempted*) and Reconciling/Ready say it runs; the action itself follows in the next
 * reconcile, so the generation stays unobserved for a reconcile delay more.
 */
import { conditionsIn } from '../helm-release-state.js';
import { MANAGER } from '../helm-apply.js';
import { writeStatus } from '../status-helpers.js';
import { recordAttempt, type Attempt } from './attempt.js';
import { HR, setAll, type Reconcile } from './common.js';

export function prepareAttempt(run: Reconcile, attempt: Attempt): number {
  const { ctx, hr, status, generation } = run;
  const message = `Running '${attempt.action}' action with timeout of 5m0s`;
  recordAttempt(status, attempt, generation);
  let conditions = setAll(conditionsIn(status), ['Reconciling'],
    { status: 'True', reason: 'Progressing', message, observedGeneration: generation });
  conditions = setAll(conditions, ['Ready'],
    { status: 'Unknown', reason: 'Progressing', message, observedGeneration: generation });
  writeStatus(ctx.store, HR, hr, { ...status, conditions }, MANAGER);
  // Its own status write triggers nothing (see helmReleaseChanged): the action is requeued.
  return ctx.delayMs ?? 0;
}
