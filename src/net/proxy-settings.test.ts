import { describe, expect, it } from 'vitest';
import { describeProxy, proxyConfigured, proxySettingsFrom, proxyUrlProblem } from './proxy-settings.js';

describe('proxySettingsFrom', () => {
  it('reads HTTPS_PROXY, HTTP_PROXY and NO_PROXY, the lower-case spelling winning', () => {
    expect(proxySettingsFrom({ HTTPS_PROXY: 'http://upper:3128', https_proxy: 'http://lower:3128', HTTP_PROXY: 'http://p:80', no_proxy: '.svc,10.0.0.1' }))
      .toEqual({ httpsProxy: 'http://lower:3128', httpProxy: 'http://p:80', noProxy: '.svc,10.0.0.1' });
  });

  it('is off when neither proxy is set (NO_PROXY alone routes nothing)', () => {
    expect(proxyConfigured(proxySettingsFrom({ NO_PROXY: '*' }))).toBe(false);
    expect(proxyConfigured(proxySettingsFrom({ HTTPS_PROXY: 'http://p:3128' }))).toBe(true);
  });
});

describe('proxyUrlProblem', () => {
  it.each([['http://proxy:3128'], ['https://proxy:443'], ['socks5://proxy:1080'], ['']])('accepts %j', (url) => {
    expect(proxyUrlProblem(url)).toBeUndefined();
  });

  it('says what is wrong with a URL it cannot use', () => {
    expect(proxyUrlProblem('proxy:3128')).toBe('unsupported scheme proxy: (want http, https or socks5)');
    expect(proxyUrlProblem('not a url')).toBe('not a URL (want http://host:port)');
  });
});

describe('describeProxy', () => {
  it('never shows the proxy password', () => {
    expect(describeProxy('http://user:s3cret@proxy:3128')).toBe('http://user:redacted@proxy:3128/');
    expect(describeProxy('')).toBeUndefined();
  });
});
