import { describe, expect, it } from 'vitest';
import { parseConfig } from './parse-config.js';

const migrate = (args: string[], env: Record<string, string> = {}) => parseConfig(['migrate', ...args], env);

describe('agent-manager migrate', () => {
  it('runs every phase towards 2.x by default, with the report ConfigMap and timeout of the original', () => {
    const parsed = migrate([]);
    expect(parsed.kind).toBe('migrate');
    if (parsed.kind !== 'migrate') return;
    expect(parsed.config).toMatchObject({
      to: '2.x', phases: ['expand', 'wait', 'contract'], timeoutMs: 600_000, dryRun: false,
      reportConfigMap: 'agent-manager-migrate-report', namespaces: [], gitopsNamespaces: [],
    });
    expect(parsed.config.harnessName).toBeUndefined();
  });

  it('takes one phase, the namespaces, the way back and --harness-name only from the command line', () => {
    const parsed = migrate(['--phase', 'expand', '--namespaces', 'a,b', '--agent-chart-semver', '0.x',
      '--harness-name', 'claude'], { AGENT_MANAGER_MIGRATE_DRY_RUN: 'true' });
    expect(parsed).toMatchObject({ kind: 'migrate', config: { phases: ['expand'], namespaces: ['a', 'b'], to: '0.x',
      harnessName: 'claude', dryRun: true } });
    const fromEnv = migrate([], { AGENT_HARNESS_NAME: 'claude' });
    expect(fromEnv.kind === 'migrate' && fromEnv.config.harnessName).toBeUndefined();
  });

  it.each<[string[], RegExp, Record<string, string>?]>([
    [['--dry-run=maybe'], /--dry-run "maybe"/],
    [[], /AGENT_MANAGER_MIGRATE_DRY_RUN/, { AGENT_MANAGER_MIGRATE_DRY_RUN: 'perhaps' }],
    [['--agent-chart-semver', 'x.x.x'], /admits chart majors 0, 1, 2/],
    [['--phase', 'shrink'], /--phase "shrink"/],
    [['--listen', ':9000'], /unknown flag/],
  ])('refuses %j (exit 2) instead of falling back', (args, text, env = {}) => {
    const parsed = migrate(args, env);
    expect(parsed.kind).toBe('error');
    expect(parsed.kind === 'error' && parsed.message).toMatch(text);
  });
});
