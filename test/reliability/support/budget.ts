/**
 * The size of the reliability suite, from `RELIABILITY_BUDGET`: `ci` (what `.ci/run` runs, about
 * 30 s), `short` (the default, a few minutes) and `full` (a 5-minute soak). Every duration, run
 * count and sample the suites use comes from here, so the budgets differ only in size, never in
 * claims. `ci` takes a fresh seed per run (printed, and in every failure); `RELIABILITY_SEED`
 * sets the seed of any budget, so a failed run can be repeated exactly.
 */
import fc from 'fast-check';

export type BudgetName = 'ci' | 'short' | 'full';

export interface Budget {
  readonly name: BudgetName;
  /** The seed of the fuzz streams and of every sample below. */
  readonly seed: number;
  /** fast-check runs per fuzzed property. */
  readonly fuzzRuns: number;
  /** Soak: warm-up before measuring, then the measured time, both in ms. */
  readonly soakWarmupMs: number;
  readonly soakMeasureMs: number;
  /** Soak: the length of one measurement window (ms). */
  readonly soakWindowMs: number;
  /** Registry suite: how long each registry state is held under load (ms). */
  readonly registryPhaseMs: number;
  /**
   * Faults suite: at how many API requests of an operation the timeouts (each holds a request
   * past the client's deadline) are injected besides its first and last; every request still
   * gets the quick faults. `all`: every request gets every fault.
   */
  readonly timeoutSteps: number | 'all';
  /** Races suite: how many offsets of each sweep are run besides its first and last ('all': every one). */
  readonly raceOffsets: number | 'all';
}

type Size = Omit<Budget, 'name' | 'seed'>;
const SIZES: Record<BudgetName, Size> = {
  ci: {
    fuzzRuns: 60, soakWarmupMs: 2_000, soakMeasureMs: 6_000, soakWindowMs: 150, registryPhaseMs: 600,
    timeoutSteps: 1, raceOffsets: 2,
  },
  short: {
    fuzzRuns: 200, soakWarmupMs: 8_000, soakMeasureMs: 30_000, soakWindowMs: 750, registryPhaseMs: 1_500,
    timeoutSteps: 'all', raceOffsets: 'all',
  },
  full: {
    fuzzRuns: 1_500, soakWarmupMs: 20_000, soakMeasureMs: 300_000, soakWindowMs: 5_000, registryPhaseMs: 5_000,
    timeoutSteps: 'all', raceOffsets: 'all',
  },
};
/** The seed of `short` and `full` when `RELIABILITY_SEED` is unset: their runs repeat exactly. */
const FIXED_SEED = 20_261_130;

/** The budget named by `RELIABILITY_BUDGET` (unset means short); anything else is refused. */
export function budget(env: NodeJS.ProcessEnv = process.env): Budget {
  const name = (env.RELIABILITY_BUDGET ?? '').trim() || 'short';
  if (name !== 'ci' && name !== 'short' && name !== 'full') {
    throw new Error(`RELIABILITY_BUDGET must be ci, short or full, got "${name}"`);
  }
  const given = (env.RELIABILITY_SEED ?? '').trim();
  if (given !== '' && !/^-?\d+$/.test(given)) throw new Error(`RELIABILITY_SEED must be an integer, got "${given}"`);
  const seed = given !== '' ? Number(given) : name === 'ci' ? Math.floor(Math.random() * 2 ** 31) : FIXED_SEED;
  return { name, seed, ...SIZES[name] };
}

/** How to repeat this run, for failure messages and the log. */
export const rerun = (b: Budget): string => `RELIABILITY_BUDGET=${b.name} RELIABILITY_SEED=${b.seed}`;

/**
 * `items` itself, or its first and last and `extra` of the others picked with `seed` (kept in
 * order); `salt` gives each sweep of one run its own pick.
 */
export function sample<T>(items: readonly T[], extra: number | 'all', seed: number, salt: string): T[] {
  if (extra === 'all' || items.length <= extra + 2) return [...items];
  const saltHash = [...salt].reduce((h, c) => (h * 31 + c.charCodeAt(0)) | 0, 0);
  const middle = items.slice(1, -1).map((_, i) => i + 1);
  const pick = fc.shuffledSubarray(middle, { minLength: extra, maxLength: extra });
  const picked = fc.sample(pick, { seed: seed ^ saltHash, numRuns: 1 })[0]!;
  const keep = new Set([0, items.length - 1, ...picked]);
  return items.filter((_, i) => keep.has(i));
}
