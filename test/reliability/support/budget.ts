/**
 * The time budget of the reliability suite, from `RELIABILITY_BUDGET`: `short` (CI, the
 * default) keeps the whole suite within a few minutes on a 2-core machine; `full` runs
 * the soak for five minutes and the fuzzers longer. Every duration and run count the
 * suites use comes from here, so the two budgets differ only in size, never in claims.
 */

export type BudgetName = 'short' | 'full';

export interface Budget {
  readonly name: BudgetName;
  /** fast-check runs per fuzzed property. */
  readonly fuzzRuns: number;
  /** Soak: warm-up before measuring, then the measured time, both in ms. */
  readonly soakWarmupMs: number;
  readonly soakMeasureMs: number;
  /** Soak: the length of one measurement window (ms). */
  readonly soakWindowMs: number;
  /** Registry suite: how long each registry state is held under load (ms). */
  readonly registryPhaseMs: number;
}

const BUDGETS: Record<BudgetName, Budget> = {
  short: {
    name: 'short', fuzzRuns: 200, soakWarmupMs: 8_000, soakMeasureMs: 30_000, soakWindowMs: 750, registryPhaseMs: 1_500,
  },
  full: {
    name: 'full', fuzzRuns: 1_500, soakWarmupMs: 20_000, soakMeasureMs: 300_000, soakWindowMs: 5_000, registryPhaseMs: 5_000,
  },
};

/** The budget named by `RELIABILITY_BUDGET` (unset means short); anything else is refused. */
export function budget(env: NodeJS.ProcessEnv = process.env): Budget {
  const name = (env.RELIABILITY_BUDGET ?? '').trim() || 'short';
  if (name !== 'short' && name !== 'full') {
    throw new Error(`RELIABILITY_BUDGET must be short or full, got "${name}"`);
  }
  return BUDGETS[name];
}
