import { describe, expect, it } from 'vitest';
import { isPrivateAddress, refuseUrl } from './address-guard.js';

describe('isPrivateAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.20.0.1', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['::1', true],
    ['[::1]', true],
    ['fd00::1', true],
    ['fe80::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:10.0.0.1', true],
    ['8.8.8.8', false],
    ['172.32.0.1', false],
    ['2001:4860:4860::8888', false],
    ['dex.example.com', false],
  ])('%s is private: %s', (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });
});

describe('refuseUrl', () => {
  it.each([
    ['https://dex.example.com/dex', false, undefined],
    ['http://127.0.0.1:5556/dex', true, undefined],
    ['https://10.0.0.5/dex', true, undefined],
    ['http://dex.example.com', true, /must use https \(http is accepted for loopback only\)/],
    ['http://127.0.0.1:5556', false, /private or loopback address; set --allow-private-oauth-urls/],
    ['https://localhost/dex', false, /private or loopback address/],
    ['https://169.254.169.254/latest', false, /private or loopback address/],
    ['ftp://dex.example.com', true, /is not an http\(s\) URL/],
    ['https://user:pw@dex.example.com', true, /must not carry credentials/],
  ])('%s (allow private: %s) is refused: %s', (url, allowPrivate, expected) => {
    const refused = refuseUrl(new URL(url), allowPrivate);
    if (expected === undefined) expect(refused).toBeUndefined();
    else expect(refused).toMatch(expected);
  });
});
