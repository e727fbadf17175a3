import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { FlagDef } from './flag-types.js';
import { COMMANDS, MIGRATE_FLAGS, RETIRED_SERVE_FLAGS, SANDBOX_FLAGS, SERVE_FLAGS } from './flags.js';
import { formatDefault, formatFlagName, helpText } from './help.js';
import { parseValue } from './resolve.js';
import { needsShared, sharedPath } from '../../test/support/shared-reference.js';

const GO_FLAGS = sharedPath('reference/anchor-inventory.md');

const tables: Array<[string, readonly FlagDef[]]> = [
  ['serve', SERVE_FLAGS],
  ['sandbox', SANDBOX_FLAGS],
  ['migrate', MIGRATE_FLAGS],
];

describe.each(tables)('the %s flag table', (command, table) => {
  it.each(table.map((d) => [d.name, d] as const))('gives --%s an env var, a default, a help sentence and a group', (_name, def) => {
    expect(def.name).toMatch(/^[a-z][a-z0-9-]*$/);
    expect(def.env).toMatch(/^[A-Z][A-Z0-9_]*$/);
    expect(def.help).toMatch(/^\S.*\.$/);
    expect(def.group).not.toBe('');
    expect(typeof def.default === 'boolean').toBe(def.type === 'bool');
    if (def.type === 'enum') expect(def.choices).toContain(def.default);
  });

  it.each(table.map((d) => [d.name, d] as const))('parses the default of --%s', (_name, def) => {
    expect(() => parseValue(def, { text: String(def.default), source: 'default' })).not.toThrow();
  });

  it('has unique names, short names and env vars', () => {
    const unique = (xs: Array<string | undefined>) => new Set(xs.filter(Boolean)).size === xs.filter(Boolean).length;
    expect(unique(table.map((d) => d.name))).toBe(true);
    expect(unique(table.map((d) => d.short))).toBe(true);
    expect(unique(table.map((d) => d.env))).toBe(true);
    // --help and -h are the parser's own; --no-<bool> must not collide with a flag.
    expect(table.some((d) => d.name === 'help' || d.short === 'h' || d.name.startsWith('no-'))).toBe(false);
  });

  it('lists every flag in --help with its env var and default', () => {
    const text = helpText(command as 'serve' | 'sandbox' | 'migrate');
    for (const def of table) {
      expect(text).toContain(formatFlagName(def));
      expect(text).toContain(`${def.help}\n        env ${def.env}, default ${formatDefault(def)}`);
    }
  });
});

describe('the serve flag table', () => {
  it.each([
    ['verbose', 'v', 'AGENT_MANAGER_VERBOSE', false],
    ['metrics-listen', undefined, 'AGENT_MANAGER_METRICS_LISTEN', ':9464'],
    ['sandbox', undefined, 'AGENT_MANAGER_SANDBOX', false],
    ['sandbox-listen', undefined, 'AGENT_MANAGER_SANDBOX_LISTEN', '127.0.0.1:0'],
    ['sandbox-kubeconfig', undefined, 'AGENT_MANAGER_SANDBOX_KUBECONFIG', ''],
  ])('has --%s (short %j) from %s, default %j, beyond the reference flag set', (name, short, env, def) => {
    expect(SERVE_FLAGS.find((d) => d.name === name)).toMatchObject({ env, default: def, ...(short ? { short } : {}) });
  });

  it('retires only flags it no longer has', () => {
    expect(RETIRED_SERVE_FLAGS.map((r) => r.name)).toEqual(['allow-public-client-registration']);
    for (const r of RETIRED_SERVE_FLAGS) {
      expect((SERVE_FLAGS as readonly FlagDef[]).some((d) => d.name === r.name || d.env === r.env)).toBe(false);
    }
  });

  it('marks the client secrets and the GitHub token secret', () => {
    expect(SERVE_FLAGS.filter((d) => 'secret' in d && d.secret).map((d) => d.name).sort())
      .toEqual(['agent-chart-password', 'agent-chart-token', 'dex-client-secret', 'gitops-github-token', 'google-client-secret', 'skills-github-token']);
  });

  // Reads the flag table of giantswarm/agent-manager's serve command from ../shared at run time;
  // the project does not ship a copy of it.
  it.skipIf(!existsSync(GO_FLAGS))(needsShared('has every flag of the Go serve command with its env var and default, or retires it saying why', 'reference/anchor-inventory.md'), () => {
    const text = readFileSync(GO_FLAGS, 'utf8');
    const section = text.slice(text.indexOf('### 3.1'), text.indexOf('### 3.2'));
    const rows = [...section.matchAll(/^\| `--([a-z-]+)` \| ([A-Z_]+) \| ([^|]+) \|/gm)];
    expect(rows.length).toBeGreaterThan(30);
    for (const [, name, env, rawDefault] of rows) {
      const retired = RETIRED_SERVE_FLAGS.find((r) => r.name === name);
      if (retired) {
        expect(retired.env, `--${name}`).toBe(env);
        continue;
      }
      const def = SERVE_FLAGS.find((d) => d.name === name);
      expect(def, `--${name}`).toBeDefined();
      expect(def!.env, `--${name}`).toBe(env);
      const wanted = /`([^`]*)`/.exec(rawDefault!)?.[1] ?? rawDefault!.trim();
      const expected = wanted === '""' ? '' : wanted === 'true' ? true : wanted === 'false' ? false : wanted;
      expect(def!.default, `--${name}`).toEqual(CHANGED_DEFAULTS[name] ?? expected);
    }
  });
});

/**
 * Defaults that follow the platform rather than the original's first table: a new namespace's source follows chart 2.x,
 * the platform's current line, and one major only (docs/chart-lines.md).
 */
const CHANGED_DEFAULTS: Record<string, string> = { 'agent-chart-semver': '2.x' };

describe('COMMANDS', () => {
  it('names serve, sandbox and version, each with a summary', () => {
    expect(Object.keys(COMMANDS)).toEqual(['serve', 'sandbox', 'migrate', 'version']);
    for (const c of Object.values(COMMANDS)) expect(c.summary).toMatch(/\.$/);
  });
});

describe('helpText', () => {
  it('lists the commands and the root flags at the root', () => {
    const text = helpText('root');
    for (const word of ['serve', 'sandbox', 'version', '--version', '--verbose', '--help']) expect(text).toContain(word);
  });
  it('shows the negated form of bools that default to true', () => {
    expect(helpText('sandbox')).toContain('--seed, --no-seed');
    expect(helpText('sandbox')).toContain('--controllers, --no-controllers');
    expect(helpText('serve')).toContain('--mcp-enabled, --no-mcp-enabled');
  });
  it('shows the choices of an enum', () => {
    expect(helpText('sandbox')).toContain('--authorization <rbac|always-allow>');
  });
});
