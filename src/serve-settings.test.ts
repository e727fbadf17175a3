import { describe, expect, it } from 'vitest';
import type { AppConfig } from './config/index.js';
import { parseConfig } from './config/parse-config.js';
import { DEFAULT_API_VERSIONS } from './service/resources.js';
import { allowedBrowserOrigins, DEFAULT_MUSTER_URL, serviceSettings } from './serve-settings.js';

function serveConfig(...args: string[]): AppConfig {
  const r = parseConfig(['serve', ...args], {});
  if (r.kind !== 'serve') throw new Error(`unexpected ${r.kind}`);
  return r.config;
}

const DEX = ['--enable-oauth', '--oauth-base-url=https://am.example.com:8443/base',
  '--dex-issuer-url=https://dex.example.com', '--dex-client-id=am'];
const facts = (config: AppConfig, sandboxMuster?: { url: string; token: string }) => ({
  version: '1.2.3', apiVersions: DEFAULT_API_VERSIONS, fleet: config.fleet, sandboxMuster,
});

describe('serviceSettings', () => {
  it('passes the flags on and composes with the discovered Flux versions', () => {
    const config = serveConfig('--revision-history-limit=3', '--gitops-repository=acme/fleet');
    const settings = serviceSettings(config, facts(config));
    expect(settings.version).toBe('1.2.3');
    expect(settings.revisionHistoryLimit).toBe(3);
    expect(settings.compose.apiVersions).toEqual({
      helmRelease: DEFAULT_API_VERSIONS.helmRelease, ociRepository: DEFAULT_API_VERSIONS.ociRepository,
    });
    expect(settings.gitops).toMatchObject({ repository: 'acme/fleet', branch: 'main', reviewCallers: false });
    expect(settings.targetMusterUrl).toBeUndefined();
  });

  it('reviews callers before commit mode only with OAuth and the ServiceAccount making the calls', () => {
    const oauth = serveConfig(...DEX);
    expect(serviceSettings(oauth, facts(oauth)).gitops?.reviewCallers).toBe(true);
    const downstream = serveConfig(...DEX, '--downstream-oauth');
    expect(serviceSettings(downstream, facts(downstream)).gitops?.reviewCallers).toBe(false);
  });

  it('points chart 2.x agents and the claude-Harness guards at the sandbox muster when --muster-url is empty', () => {
    const config = serveConfig();
    const sandbox = serviceSettings(config, facts(config, { url: 'http://127.0.0.1:1234/mcp', token: 't' }));
    expect(sandbox.line2?.musterUrl).toBe('http://127.0.0.1:1234/mcp');
    expect(sandbox.claudeGuard?.musterUrl).toBe('http://127.0.0.1:1234/mcp');
    expect(serviceSettings(config, facts(config)).claudeGuard?.musterUrl).toBe(DEFAULT_MUSTER_URL);
  });
});

describe('allowedBrowserOrigins', () => {
  it('is the operator list without repeats, plus the public base URL origin with OAuth', () => {
    expect(allowedBrowserOrigins(serveConfig('--allowed-origins=https://a.example,https://a.example'))).toEqual([
      'https://a.example',
    ]);
    expect(allowedBrowserOrigins(serveConfig(...DEX, '--allowed-origins=https://a.example'))).toEqual([
      'https://a.example', 'https://am.example.com:8443',
    ]);
  });
});
