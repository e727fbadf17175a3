import { describe, expect, it } from 'vitest';
import type { AppConfig } from './app-config.js';
import { parseConfig } from './parse-config.js';

type Env = Record<string, string | undefined>;

function parsed(args: string[], env: Env = {}): { config?: AppConfig; error?: string } {
  const r = parseConfig(['serve', ...args], env);
  if (r.kind === 'serve') return { config: r.config };
  if (r.kind === 'error') return { error: r.message };
  throw new Error(`unexpected ${r.kind}`);
}

const DEX = ['--enable-oauth', '--oauth-base-url=https://am.example.com', '--dex-issuer-url=https://dex.example.com',
  '--dex-client-id=am'];

describe('parseConfig: the claude-Harness guards', () => {
  it('gives no Harness origins and no token file by default', () => {
    expect(parsed([]).config?.harnessGuards).toEqual({ egress: {}, musterTokenFile: '' });
  });

  it('reads --harness-egress, and AGENT_MANAGER_HARNESS_EGRESS when the flag is absent', () => {
    expect(parsed(['--harness-egress=claude=https://github.com,https://*.githubusercontent.com;codex=']).config
      ?.harnessGuards.egress).toEqual({ claude: ['https://github.com', 'https://*.githubusercontent.com'], codex: [] });
    expect(parsed([], { AGENT_MANAGER_HARNESS_EGRESS: 'claude=https://github.com' }).config?.harnessGuards.egress)
      .toEqual({ claude: ['https://github.com'] });
  });

  it('stops startup on an origin the Agent would refuse, saying which', () => {
    expect(parsed(['--harness-egress=claude=https://github.com/org']).error).toBe('--harness-egress ' +
      '"claude=https://github.com/org": Harness claude: egress[0] "https://github.com/org" is not an HTTP(S) origin: ' +
      'give <scheme>://<host>[:<port>], such as https://github.com:443 or https://*.githubusercontent.com (a wildcard ' +
      'replaces the leftmost label and needs two labels under it)');
  });

  it('names the environment variable when the bad text came from there', () => {
    expect(parsed([], { AGENT_MANAGER_HARNESS_EGRESS: 'claude' }).error).toMatch(/AGENT_MANAGER_HARNESS_EGRESS/);
  });

  it('reads --muster-token-file and AGENT_MANAGER_MUSTER_TOKEN_FILE', () => {
    expect(parsed(['--muster-token-file=/var/run/muster/token']).config?.harnessGuards.musterTokenFile)
      .toBe('/var/run/muster/token');
    expect(parsed([], { AGENT_MANAGER_MUSTER_TOKEN_FILE: '/t' }).config?.harnessGuards.musterTokenFile).toBe('/t');
  });

  it('refuses a token file under --enable-oauth, where the caller\'s own token is presented', () => {
    expect(parsed([...DEX, '--muster-token-file=/t']).error).toBe('--muster-token-file is for installations without ' +
      "--enable-oauth: with OAuth the toolset check presents the caller's own token to muster; drop the flag " +
      '(AGENT_MANAGER_MUSTER_TOKEN_FILE)');
  });
});
