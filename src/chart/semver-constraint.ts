/**
 * Chart version choice as Flux's OCIRepository makes it: Masterminds/semver v3 constraints over strictly
 * parsed tags, since npm's ranges would pick another chart than helm-controller installs (wildcards,
 * `^0.0`, pre-releases). The `semver` package only holds and orders versions. Pre-releases follow
 * Masterminds v3.3+: admitted by an AND group only when one of its comparators names a pre-release
 * (`>=1.2.0-0 <2.0.0` admits `1.5.0-rc.1`; `1.x` never admits `1.0.0-dev.1`).
 */
import { SemVer, compare } from 'semver';

/** A parsed `ref.semver` range. */
export interface SemverConstraint {
  /** The range as written. */
  readonly range: string;
  /** True when the version (a SemVer, or a tag parsed strictly) satisfies the range. */
  satisfies(version: string | SemVer): boolean;
}

const OPERATORS = ['', '=', '!=', '>', '<', '>=', '=>', '<=', '=<', '~', '~>', '^'] as const;
type Op = typeof OPERATORS[number];
const isOp = (text: string | undefined): text is Op => OPERATORS.some((op) => op === text);

interface Comparator {
  op: Op;
  con: SemVer;
  /** Some part was a wildcard or missing (`1.x`, `1.2`, `*`). */
  dirty: boolean;
  minorDirty: boolean;
  patchDirty: boolean;
}

interface AndGroup {
  comparators: Comparator[];
  /** Some comparator names a pre-release, so the whole group admits pre-releases. */
  admitsPrerelease: boolean;
}

/** Longer than this is refused, as newer Masterminds releases do. */
const MAX_RANGE_LENGTH = 512;

// Operator alternatives in Masterminds' order: regex alternation picks the first that lets
// a version follow, so `>=` is found through backtracking exactly as Go's RE2 finds it.
const OPS = String.raw`=||!=|>|<|>=|=>|<=|=<|~|~>|\^`;
const IDENT = String.raw`[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*`;
// A constraint version: major, .minor, .patch (digits or x/X/*), -pre, +build.
const CV = String.raw`v?([0-9xX*]+)(\.[0-9xX*]+)?(\.[0-9xX*]+)?(-${IDENT})?(?:\+${IDENT})?`;
const CV_PLAIN = String.raw`v?[0-9xX*]+(?:\.[0-9xX*]+)?(?:\.[0-9xX*]+)?(?:-${IDENT})?(?:\+${IDENT})?`;

const RANGE_RE = new RegExp(String.raw`\s*(${CV_PLAIN})\s+-\s+(${CV_PLAIN})\s*`, 'g');
// One operator and version at a position (sticky); whitespace around atoms is skipped by hand
// so that no two quantifiers compete for the same spaces (no catastrophic backtracking).
const ATOM_AT = new RegExp(String.raw`(?:${OPS})\s*${CV_PLAIN}`, 'y');
const ATOM_RE = new RegExp(String.raw`^(${OPS})\s*${CV}$`);
const WS = /\s/;

// SemVer 2.0 as Masterminds StrictNewVersion reads it: no leading `v`, no leading zeros.
const NUM = String.raw`(?:0|[1-9]\d*)`;
const PRE_ID = String.raw`(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)`;
const STRICT_RE = new RegExp(String.raw`^${NUM}\.${NUM}\.${NUM}(?:-${PRE_ID}(?:\.${PRE_ID})*)?(?:\+${IDENT})?$`);

const isX = (part: string): boolean => part === 'x' || part === 'X' || part === '*';

/**
 * A tag as a version, or undefined when it is not strict SemVer 2.0 (three numeric parts,
 * no leading zeros, no leading `v`), like Masterminds `StrictNewVersion`.
 */
export function parseStrictVersion(tag: string): SemVer | undefined {
  if (!STRICT_RE.test(tag)) return undefined;
  try {
    return new SemVer(tag);
  } catch {
    return undefined; // a part beyond Number.MAX_SAFE_INTEGER
  }
}

/**
 * Parse a Masterminds/semver v3 range: `x.x.x`, `*`, `1.x`, `~1.2`, `^1.2.3`, hyphen ranges,
 * comparisons, `,` or space for AND and `||` for OR. Throws an Error saying what is wrong.
 */
export function parseSemverConstraint(range: string): SemverConstraint {
  const fail = (reason: string): never => {
    throw new Error(
      `semver range "${range}" is not valid: ${reason} (examples: x.x.x, 0.x, ~1.2, ^1.2.3, >=1.2.0 ` +
      `<2.0.0, 1.0.0 - 1.4.0)`,
    );
  };
  if (range.length > MAX_RANGE_LENGTH) fail(`longer than ${MAX_RANGE_LENGTH} characters`);
  const rewritten = range.replace(RANGE_RE, (_all, low: string, high: string) => `>= ${low}, <= ${high} `);
  const groups: AndGroup[] = rewritten.split('||').map((segment) => {
    const atoms = splitGroup(segment) ?? fail(`improper constraint "${segment.trim()}"`);
    const comparators = atoms.map((atom) => parseComparator(atom) ?? fail(`improper constraint "${atom}"`));
    return { comparators, admitsPrerelease: comparators.some((c) => c.con.prerelease.length > 0) };
  });
  return new Constraint(range, groups);
}

/**
 * The newest tag satisfying the range, as originally spelled. Only strictly parsed tags
 * count. Throws `no chart version satisfies "<c>" among N tags` when none does.
 */
export function latestVersion(tags: readonly string[], range: string | SemverConstraint): string {
  const constraint = typeof range === 'string' ? parseSemverConstraint(range) : range;
  let best: { tag: string; version: SemVer } | undefined;
  for (const tag of tags) {
    const version = parseStrictVersion(tag);
    if (!version || !constraint.satisfies(version)) continue;
    if (!best || compare(version, best.version) > 0) best = { tag, version };
  }
  if (!best) throw new Error(`no chart version satisfies "${constraint.range}" among ${tags.length} tags`);
  return best.tag;
}

class Constraint implements SemverConstraint {
  constructor(
    readonly range: string,
    private readonly groups: AndGroup[],
  ) {}

  satisfies(version: string | SemVer): boolean {
    const v = typeof version === 'string' ? parseStrictVersion(version) : version;
    if (!v) return false;
    const isPre = v.prerelease.length > 0;
    return this.groups.some(
      (group) => (!isPre || group.admitsPrerelease) && group.comparators.every((c) => check(v, c)),
    );
  }
}

/**
 * The AND group's atoms, separated by whitespace or one comma (Masterminds'
 * `(?:\s+|,\s*)`), or undefined when something else stands between or after them.
 */
function splitGroup(group: string): string[] | undefined {
  const atoms: string[] = [];
  const skipSpace = (from: number): number => {
    let i = from;
    while (i < group.length && WS.test(group.charAt(i))) i++;
    return i;
  };
  const atomAt = (from: number): number | undefined => {
    ATOM_AT.lastIndex = from;
    const m = ATOM_AT.exec(group);
    if (!m) return undefined;
    atoms.push(m[0]);
    return ATOM_AT.lastIndex;
  };
  let end = atomAt(skipSpace(0));
  while (end !== undefined) {
    const next = skipSpace(end);
    if (next === group.length) return atoms;
    if (group[next] === ',') end = atomAt(skipSpace(next + 1));
    else end = next > end ? atomAt(next) : undefined;
  }
  return undefined;
}

function parseComparator(atom: string): Comparator | undefined {
  const m = ATOM_RE.exec(atom);
  if (!m) return undefined;
  const [, op, major = '', minorDot = '', patchDot = '', pre = ''] = m;
  // ATOM_RE captures only these operators; the guard tells the compiler so.
  if (!isOp(op)) return undefined;
  const minor = minorDot.slice(1);
  const patch = patchDot.slice(1);
  let dirty = false;
  let minorDirty = false;
  let patchDirty = false;
  let text: string;
  if (isX(major)) {
    dirty = true;
    text = `0.0.0${pre}`;
  } else if (minor === '' || isX(minor)) {
    dirty = minorDirty = true;
    text = `${num(major)}.0.0${pre}`;
  } else if (patch === '' || isX(patch)) {
    dirty = patchDirty = true;
    text = `${num(major)}.${num(minor)}.0${pre}`;
  } else {
    text = `${num(major)}.${num(minor)}.${num(patch)}${pre}`;
  }
  try {
    return { op, con: new SemVer(text), dirty, minorDirty, patchDirty };
  } catch {
    return undefined; // `1.x.3` parts that are not numbers, leading-zero pre-release ids, overflow
  }
}

/** Masterminds reads constraint numbers loosely (`01` is 1); anything else fails the SemVer parse. */
function num(part: string): string {
  return /^\d+$/.test(part) ? String(Number(part)) : part;
}

/** One comparator against a version the group already admitted (pre-release gate done). */
function check(v: SemVer, c: Comparator): boolean {
  switch (c.op) {
    case '':
    case '=':
      return c.dirty ? tilde(v, c) : compare(v, c.con) === 0;
    case '!=':
      return notEqual(v, c);
    case '>':
      return greaterThan(v, c);
    case '<':
      return compare(v, c.con) < 0;
    case '>=':
    case '=>':
      return compare(v, c.con) >= 0;
    case '<=':
    case '=<':
      return lessThanEqual(v, c);
    case '~':
    case '~>':
      return tilde(v, c);
    case '^':
      return caret(v, c);
  }
}

function notEqual(v: SemVer, c: Comparator): boolean {
  if (c.dirty) {
    if (c.con.major !== v.major) return true;
    if (c.con.minor !== v.minor && !c.minorDirty) return true;
    if (c.minorDirty) return false;
    if (c.con.patch !== v.patch && !c.patchDirty) return true;
    if (c.patchDirty) return v.comparePre(c.con) !== 0;
  }
  return compare(v, c.con) !== 0;
}

function greaterThan(v: SemVer, c: Comparator): boolean {
  if (!c.dirty) return compare(v, c.con) > 0;
  if (v.major !== c.con.major) return v.major > c.con.major;
  if (c.minorDirty) return false; // >1 means 2.0.0 or later
  if (c.patchDirty) return v.minor > c.con.minor; // >1.2 means 1.3.0 or later
  return compare(v, c.con) > 0;
}

function lessThanEqual(v: SemVer, c: Comparator): boolean {
  if (!c.dirty) return compare(v, c.con) <= 0;
  if (v.major > c.con.major) return false;
  return !(v.major === c.con.major && v.minor > c.con.minor && !c.minorDirty);
}

// ~1.2.3 and ~1.2 → >=1.2.x <1.3.0; ~1 → <2.0.0; ~* and ~0.0.0 → anything.
function tilde(v: SemVer, c: Comparator): boolean {
  if (compare(v, c.con) < 0) return false;
  const zero = c.con.major === 0 && c.con.minor === 0 && c.con.patch === 0;
  if (zero && !c.minorDirty && !c.patchDirty) return true;
  if (v.major !== c.con.major) return false;
  return v.minor === c.con.minor || c.minorDirty;
}

// ^1.2.3 → <2.0.0; ^0.2.3 → <0.3.0; ^0.0.3 → =0.0.3; ^0.0 → <0.1.0; ^0 → <1.0.0.
function caret(v: SemVer, c: Comparator): boolean {
  if (compare(v, c.con) < 0) return false;
  if (c.con.major > 0 || c.minorDirty) return v.major === c.con.major;
  if (v.major > 0) return false;
  if (c.con.minor > 0 || c.patchDirty) return v.minor === c.con.minor;
  if (v.minor > 0) return false;
  return v.patch === c.con.patch;
}
