import { describe, expect, it } from 'vitest';
import { parseConfig } from './parse-config.js';
import { redactedSummary } from './summary.js';

const SECRETS = { DEX_CLIENT_SECRET: 'dex-secret-value', GITHUB_TOKEN: 'ghp_secret_value', GOOGLE_CLIENT_SECRET: 'google-secret-value' };

function summaryOf(argv: string[], env: Record<string, string>): Record<string, unknown> {
  const r = parseConfig(argv, env);
  if (r.kind !== 'serve') throw new Error(JSON.stringify(r));
  return redactedSummary(r.config);
}

describe('redactedSummary', () => {
  it('says whether the GitHub token is set but never a secret\'s value, and nothing of the unused client secrets', () => {
    const summary = summaryOf(['serve', '--enable-oauth', '--oauth-base-url=https://am', '--dex-issuer-url=https://dex', '--dex-client-id=am'], SECRETS);
    const text = JSON.stringify(summary);
    for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
    expect(summary).toMatchObject({ oauth: true, oauthProvider: 'dex', skillsGithubToken: 'set' });
    expect(summary).not.toHaveProperty('oauthClientSecret');
  });

  it('reports the identity mode and the main settings, in the startup line', () => {
    expect(summaryOf(['serve', '--managed-namespaces=a'], {})).toMatchObject({
      listen: ':8080', rest: '/api/v1', mcp: '/mcp', mcpEnabled: true, oauth: false, downstreamOAuth: false,
      identity: 'serviceAccount', namespaces: ['kagent', 'a'], chart: 'oci://gsoci.azurecr.io/charts/giantswarm/agent',
      chartSemver: '2.x', kagentAPI: 'auto', helmReleaseAPI: 'auto', ociRepositoryAPI: 'auto', skillsRepositories: [],
      skillsGithubToken: 'unset', metrics: ':9464', sandbox: false,
    });
    expect(summaryOf(['serve', '--enable-oauth', '--downstream-oauth', '--oauth-base-url=https://am', '--oauth-provider=google'],
      { GOOGLE_CLIENT_ID: 'g', GOOGLE_CLIENT_SECRET: 'x' })).toMatchObject({ identity: 'caller', downstreamOAuth: true, oauthProvider: 'google' });
  });

  it('lists the Harness origins and where the muster token is read from, never the token', () => {
    expect(summaryOf(['serve', '--harness-egress=claude=https://github.com', '--muster-token-file=/run/muster/token'], {}))
      .toMatchObject({ harnessEgress: { claude: ['https://github.com'] }, musterTokenFile: '/run/muster/token' });
  });
});
