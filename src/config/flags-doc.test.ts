import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FLAGS_DOC_END, FLAGS_DOC_START, commandFlagsMarkdown, flagsDocMarkdown, withFlagsDoc } from './flags-doc.js';
import { MIGRATE_OWN_FLAGS, SANDBOX_FLAGS, SERVE_FLAGS } from './flags.js';

const OPERATIONS = new URL('../../docs/operations.md', import.meta.url);

describe('flagsDocMarkdown', () => {
  it('has one row per flag of serve, sandbox and migrate, with its variable and default', () => {
    const doc = flagsDocMarkdown();
    for (const def of [...SERVE_FLAGS, ...SANDBOX_FLAGS]) {
      expect(doc).toMatch(new RegExp(`^\\| \`[^\`]*--${def.name}\\b[^\`]*\` \\| \`${def.env}\` \\| `, 'm'));
    }
    expect(doc).toContain('### `agent-manager migrate`');
    for (const def of MIGRATE_OWN_FLAGS) expect(doc).toContain(`| \`${def.env}\` |`);
  });

  it('shows defaults as --help does and marks secrets', () => {
    const serve = commandFlagsMarkdown('serve');
    expect(serve).toContain('| `--listen <address>` | `AGENT_MANAGER_LISTEN` | `":8080"` |');
    expect(serve).toContain('| `--mcp-enabled, --no-mcp-enabled` | `AGENT_MANAGER_MCP_ENABLED` | `true` |');
    expect(serve).toMatch(/\| `GITHUB_TOKEN` \| `""` \| .* Secret: never logged\. \|/);
    expect(commandFlagsMarkdown('sandbox')).toContain('| `--authorization <rbac\\|always-allow>` | `SANDBOX_AUTHORIZATION` | `"rbac"` |');
  });

  it('groups the rows under the --help headings', () => {
    const groups = [...new Set(SERVE_FLAGS.map((d) => d.group))];
    const serve = commandFlagsMarkdown('serve');
    expect(groups.map((g) => serve.indexOf(`**${g}**`))).toEqual([...groups.map((g) => serve.indexOf(`**${g}**`))].sort((a, b) => a - b));
    expect(groups.every((g) => serve.includes(`**${g}**`))).toBe(true);
  });
});

describe('docs/operations.md', () => {
  const doc = readFileSync(OPERATIONS, 'utf8');

  it('carries the flag reference generated from the flag tables (npm run build && node scripts/gen-operations-doc.mjs)', () => {
    expect(doc).toContain(FLAGS_DOC_START);
    expect(doc).toContain(FLAGS_DOC_END);
    expect(withFlagsDoc(doc)).toBe(doc);
  });

  it('names every serve and sandbox flag and its environment variable', () => {
    for (const def of [...SERVE_FLAGS, ...SANDBOX_FLAGS]) {
      expect(doc).toContain(`--${def.name}`);
      expect(doc).toContain(def.env);
    }
  });

  it('refuses a document without the markers', () => {
    expect(() => withFlagsDoc('# no markers')).toThrow(/markers/);
  });
});
