/**
 * The shape of one command-line flag and of the values flags parse to. The flag tables
 * (flags.ts) are plain data of this shape, so `--help`, the parser and a docs generator
 * all read the same rows.
 */

/**
 * How a flag's text becomes a value:
 * - `string`: as given;
 * - `bool`: Go `strconv.ParseBool` spellings (1 t T TRUE true True, 0 f F FALSE false False);
 * - `duration`: Go `time.ParseDuration` syntax (10m, 1h30m, 500ms, 0);
 * - `list`: comma-separated, items trimmed, empty items dropped;
 * - `url`: an absolute http(s) URL, or empty for unset;
 * - `ociUrl`: `oci://<registry>/<repository>`;
 * - `semverRange`: a chart version constraint (Masterminds syntax);
 * - `enum`: one of `choices`;
 * - `address`: a `host:port` listen address (`:8080`, `127.0.0.1:0`, `[::1]:9464`);
 * - `count`: a whole number, 0 or more (`10`).
 */
export type FlagType =
  | 'string'
  | 'bool'
  | 'duration'
  | 'list'
  | 'url'
  | 'ociUrl'
  | 'semverRange'
  | 'enum'
  | 'address'
  | 'count';

/** One flag: its name, environment variable, default and help text. */
export interface FlagDef {
  /** Long name without dashes, e.g. `agent-chart-refresh`. */
  readonly name: string;
  /** One-letter alias without the dash, e.g. `v`. */
  readonly short?: string;
  /** Environment variable read when the flag is absent; an empty value counts as unset. */
  readonly env: string;
  /** Default as the user would type it (`"10m"`, `":8080"`), or a boolean for `bool` flags. */
  readonly default: string | boolean;
  readonly type: FlagType;
  /** One sentence for `--help` and the operations docs. */
  readonly help: string;
  /** Heading the flag is listed under in `--help`. */
  readonly group: string;
  /** Allowed values of an `enum` flag. */
  readonly choices?: readonly string[];
  /** An empty value is allowed and means "off" (an `address` that can be turned off). */
  readonly allowEmpty?: boolean;
  /** Never printed or logged: only whether it is set. */
  readonly secret?: boolean;
}

/**
 * A flag that no longer exists. Naming it stops startup with `reason` (not a bare
 * "unknown flag"), so an operator learns what replaced it or why it went.
 */
export interface RetiredFlag {
  readonly name: string;
  readonly env: string;
  /** What to do instead; completes "--<name> was removed: ". */
  readonly reason: string;
}

/** A parsed duration: the text as given (what a Flux `interval` carries) and milliseconds. */
export interface Duration {
  readonly text: string;
  readonly ms: number;
}

/** The value type each flag type parses to. */
export interface FlagValueOf {
  string: string;
  bool: boolean;
  duration: Duration;
  list: readonly string[];
  url: string;
  ociUrl: string;
  semverRange: string;
  enum: string;
  address: string;
  count: number;
}

/** Where a flag's value came from. */
export type FlagSource = 'flag' | 'env' | 'default';

/**
 * Parsed values of one flag table, keyed by flag name and typed by flag type; an `enum` flag's value is
 * one of its `choices` (parseValue refuses any other text), so readers need no cast to the union.
 */
export type FlagValues<T extends readonly FlagDef[]> = {
  readonly [D in T[number] as D['name']]: D extends { type: 'enum'; choices: readonly (infer C)[] } ? C
    : FlagValueOf[D['type']];
};

/** Where each value of a flag table came from. */
export type FlagSources<T extends readonly FlagDef[]> = {
  readonly [D in T[number] as D['name']]: FlagSource;
};
