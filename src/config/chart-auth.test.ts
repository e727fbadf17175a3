import { describe, expect, it } from 'vitest';
import { parseConfig } from './parse-config.js';
import { redactedSummary } from './summary.js';

type Env = Record<string, string | undefined>;

function chart(args: string[], env: Env = {}) {
  const r = parseConfig(['serve', ...args], env);
  if (r.kind !== 'serve') throw new Error(`expected serve, got ${JSON.stringify(r)}`);
  return r.config;
}

function error(args: string[], env: Env = {}): string {
  const r = parseConfig(['serve', ...args], env);
  if (r.kind !== 'error') throw new Error(`expected an error, got ${JSON.stringify(r)}`);
  return r.message;
}

describe('parseConfig: chart registry credentials', () => {
  it('reads each credential form from its flag or environment variable', () => {
    expect(chart([], { AGENT_CHART_DOCKER_CONFIG: '/etc/reg/.dockerconfigjson' }).chart.auth.dockerConfig).toBe('/etc/reg/.dockerconfigjson');
    expect(chart(['--agent-chart-username=ci'], { AGENT_CHART_PASSWORD: 'pw' }).chart.auth).toMatchObject({ username: 'ci', password: 'pw' });
    expect(chart([], { AGENT_CHART_TOKEN: 'tok' }).chart.auth.token).toBe('tok');
  });

  it('refuses two ways to log in at once, naming both', () => {
    expect(error(['--agent-chart-docker-config=/x', '--agent-chart-token=t'])).toBe(
      '--agent-chart-docker-config and --agent-chart-token are each a way to log in to the chart registry: set only one');
  });

  it('refuses a user name without a password and the reverse', () => {
    expect(error(['--agent-chart-username=ci'])).toBe('--agent-chart-username needs --agent-chart-password (set AGENT_CHART_PASSWORD)');
    expect(error([], { AGENT_CHART_PASSWORD: 'pw' })).toBe('--agent-chart-password needs --agent-chart-username');
  });

  it('takes the OCIRepository Secret and provider, refusing a name Kubernetes would not', () => {
    expect(chart(['--agent-chart-secret-ref=chart-pull', '--agent-chart-provider=gcp']).chart).toMatchObject({ secretRef: 'chart-pull', provider: 'gcp' });
    expect(error(['--agent-chart-secret-ref=Chart_Pull'])).toMatch(/^--agent-chart-secret-ref "Chart_Pull": not a Secret name/);
    expect(error(['--agent-chart-provider=oracle'])).toBe('--agent-chart-provider "oracle": want generic or aws or azure or gcp');
  });

  it('logs which form is configured, never the password or the token', () => {
    const summary = JSON.stringify(redactedSummary(chart(['--agent-chart-username=ci'], { AGENT_CHART_PASSWORD: 'hunter2' })));
    expect(summary).toContain('"chartCredentials":"username and password"');
    expect(summary).not.toContain('hunter2');
    expect(JSON.stringify(redactedSummary(chart([], { AGENT_CHART_TOKEN: 'tok-123' })))).not.toContain('tok-123');
  });
});

describe('parseConfig: proxy variables', () => {
  it('carries HTTPS_PROXY, HTTP_PROXY and NO_PROXY into the configuration', () => {
    expect(chart([], { HTTPS_PROXY: 'http://proxy:3128', no_proxy: '.svc' }).proxy).toEqual({ httpsProxy: 'http://proxy:3128', httpProxy: '', noProxy: '.svc' });
  });

  it('stops at a proxy URL it cannot use, naming the variable and hiding the password', () => {
    expect(error([], { https_proxy: 'ftp://u:pw@proxy:2121' })).toBe('https_proxy "ftp://u:redacted@proxy:2121/": unsupported scheme ftp: (want http, https or socks5)');
  });

  it('logs the proxy without its password', () => {
    const summary = JSON.stringify(redactedSummary(chart([], { HTTP_PROXY: 'http://u:hunter2@proxy:3128' })));
    expect(summary).toContain('"httpProxy":"http://u:redacted@proxy:3128/"');
    expect(summary).not.toContain('hunter2');
  });
});
