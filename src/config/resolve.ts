/**
 * Turns a command's arguments and the environment into typed flag values, one table row
 * at a time: the flag if given, else its environment variable if non-empty, else the
 * default. Every value goes through the same parser whatever its source, so a bad
 * environment value fails exactly like a bad flag (unlike the Go service, which fell
 * back to the default without a word).
 */
import { parseArgs } from 'node:util';
import type { Duration, FlagDef, FlagSource, FlagSources, FlagValueOf, FlagValues, RetiredFlag } from './flag-types.js';
import { checkHttpUrl, checkOciUrl, parseCount, parseGoBool, parseGoDuration, parseListenAddress, splitList,
  ValueError } from './values.js';
import { rangeLine } from '../chart/line-range.js';
import { parseSemverConstraint } from '../chart/semver-constraint.js';

/** A configuration error: printed as `Error: <message>`, exit code 2. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** The outcome of reading one command's flags. */
export type Resolved<T extends readonly FlagDef[]> =
  | { readonly help: true }
  | { readonly help: false; readonly values: FlagValues<T>; readonly sources: FlagSources<T> };

type Given = { readonly text: string; readonly source: FlagSource };

/** The row of `table` named `name`: the callers name rows of their own table, so a miss is a bug in this code. */
export function flagDef(table: readonly FlagDef[], name: string): FlagDef {
  const found = table.find((d) => d.name === name);
  if (!found) throw new Error(`no flag --${name} in the table`);
  return found;
}

/** How an error names a flag: `--name`, plus the variable when the value came from it. */
export function flagLabel(def: FlagDef, source: FlagSource): string {
  return source === 'env' ? `--${def.name} (from ${def.env})` : `--${def.name}`;
}

/** `--name "value": reason` (or `--name (from ENV) "value": reason`). */
export function valueError(def: FlagDef, source: FlagSource, text: string, reason: string): ConfigError {
  return new ConfigError(`${flagLabel(def, source)} ${JSON.stringify(text)}: ${reason}`);
}

/**
 * Read `args` (the command's arguments, without the command name) against `table`.
 * Throws ConfigError for an unknown flag, a missing value, a stray argument or a value
 * that does not parse.
 */
export function resolveFlags<T extends readonly FlagDef[]>(
  table: T,
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  commandPath: string,
  retired: readonly RetiredFlag[] = [],
): Resolved<T> {
  const given = readArgs(table, args, commandPath, retired);
  for (const r of retired) {
    // An environment that turns a retired switch off asks for nothing that is gone.
    const text = env[r.env];
    if (text !== undefined && text !== '' && !isFalse(text)) {
      throw new ConfigError(`--${r.name} (from ${r.env}) was removed: ${r.reason}`);
    }
  }
  if (given === 'help') return { help: true };
  const values: Record<string, unknown> = {};
  const sources: Record<string, FlagSource> = {};
  for (const def of table) {
    const envText = env[def.env];
    const chosen: Given = given.get(def.name)
      ?? (envText !== undefined && envText !== '' ? { text: envText, source: 'env' }
        : { text: String(def.default), source: 'default' });
    values[def.name] = parseValue(def, chosen);
    sources[def.name] = chosen.source;
  }
  // safe: the loop above set one value (parsed by the row's type) and one source for every row of `table`.
  return { help: false, values: values as FlagValues<T>, sources: sources as FlagSources<T> };
}

/** Parse one flag's text by its type; the error names the flag and the value. */
export function parseValue(def: FlagDef, given: Given): FlagValueOf[FlagDef['type']] {
  const { text, source } = given;
  try {
    switch (def.type) {
      case 'string': return text;
      case 'bool': return parseGoBool(text);
      case 'duration': return parseGoDuration(text) satisfies Duration;
      case 'list': return splitList(text);
      case 'url': return text === '' ? '' : checkHttpUrl(text);
      case 'address': return text === '' && def.allowEmpty ? '' : (parseListenAddress(text), text);
      case 'enum': return checkEnum(def, text);
      case 'ociUrl': return checkOciUrl(text);
      case 'semverRange': return checkSemverRange(text);
      case 'count': return parseCount(text);
    }
  } catch (err) {
    if (!(err instanceof ValueError)) throw err;
    // These two carry their own sentence, which already quotes the value.
    if (def.type === 'ociUrl' || def.type === 'semverRange') {
      throw new ConfigError(`${flagLabel(def, source)}: ${err.message}`);
    }
    throw valueError(def, source, text, err.message);
  }
}

function checkEnum(def: FlagDef, text: string): string {
  const choices = def.choices ?? [];
  if (!choices.includes(text)) throw new ValueError(`want ${choices.join(' or ')}`);
  return text;
}

function checkSemverRange(text: string): string {
  try {
    parseSemverConstraint(text);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new ValueError(`chart semver range ${JSON.stringify(text)}: ${reason}`);
  }
  // A new namespace's source follows this range: it must stay on one chart line (chart/line-range.ts).
  const line = rangeLine(text);
  if ('error' in line) throw new ValueError(`chart semver range ${JSON.stringify(text)}: ${line.error}`);
  return text;
}

/** The flags given on the command line, by long name; or 'help' for -h/--help. */
function readArgs(table: readonly FlagDef[], args: readonly string[], commandPath: string,
  retired: readonly RetiredFlag[]): Map<string, Given> | 'help' {
  const byName = new Map(table.map((d) => [d.name, d]));
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> =
    { help: { type: 'boolean', short: 'h' } };
  for (const d of table) {
    options[d.name] = { type: d.type === 'bool' ? 'boolean' : 'string', ...(d.short ? { short: d.short } : {}) };
  }
  // strict: false keeps parseArgs from throwing its own texts; tokens let us apply Go's rules
  // (--bool=false, --no-bool, a missing value) and word every error ourselves.
  const { tokens } = parseArgs({ args: [...args], options, strict: false, allowPositionals: true, tokens: true });
  const given = new Map<string, Given>();
  let help = false;
  for (const token of tokens) {
    if (token.kind === 'option-terminator') continue;
    if (token.kind === 'positional') {
      throw new ConfigError(`${commandPath} takes no arguments, got ${JSON.stringify(token.value)}; ` +
        `flags start with --`);
    }
    const { name, rawName, value } = token;
    if (name === 'help') {
      help = true;
      continue;
    }
    const negated = name.startsWith('no-') ? byName.get(name.slice(3)) : undefined;
    if (negated?.type === 'bool') {
      if (value !== undefined) throw new ConfigError(`${rawName} takes no value, got ${JSON.stringify(value)}`);
      given.set(negated.name, { text: 'false', source: 'flag' });
      continue;
    }
    const def = byName.get(name);
    const gone = def ? undefined : retired.find((r) => r.name === name || `no-${r.name}` === name);
    if (gone) throw new ConfigError(`--${gone.name} was removed: ${gone.reason}`);
    if (!def) {
      throw new ConfigError(rawName.startsWith('--')
        ? `unknown flag: ${rawName} (see ${commandPath} --help)`
        : `unknown shorthand flag: '${name}' in ${rawName} (see ${commandPath} --help)`);
    }
    if (def.type === 'bool') {
      given.set(def.name, { text: value ?? 'true', source: 'flag' });
    } else {
      if (value === undefined) throw new ConfigError(`flag needs an argument: ${rawName}`);
      given.set(def.name, { text: value, source: 'flag' });
    }
  }
  return help ? 'help' : given;
}

function isFalse(text: string): boolean {
  try {
    return !parseGoBool(text);
  } catch {
    return false;
  }
}
