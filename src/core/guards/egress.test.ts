import { describe, expect, it } from 'vitest';
import { egressViolation, harnessEgressViolations } from './egress.js';

describe('egressViolation', () => {
  it.each([
    ['a host with a port', ['https://github.com:443']],
    ['a wildcard with two labels under it', ['https://*.githubusercontent.com']],
    ['plain http', ['http://proxy.internal:3128']],
    ['no entries', []],
    ['64 entries', Array.from({ length: 64 }, (_, i) => `https://h${i}.example.com`)],
  ])('accepts %s', (_name, list) => {
    expect(egressViolation(list)).toBeUndefined();
  });

  it.each([
    ['65 entries', Array.from({ length: 65 }, (_, i) => `https://h${i}.example.com`),
      'egress has 65 entries; the Agent accepts at most 64'],
    ['a 271-character origin', ['https://' + 'a'.repeat(259) + '.com'],
      'egress[0] is 271 characters long; an origin has at most 270'],
    ['a path', ['https://github.com/x'], 'egress[0] "https://github.com/x" is not an HTTP(S) origin: give ' +
      '<scheme>://<host>[:<port>], such as https://github.com:443 or https://*.githubusercontent.com (a wildcard ' +
      'replaces the leftmost label and needs two labels under it)'],
    ['a wildcard over one label', ['https://*.com'], /^egress\[0\] "https:\/\/\*\.com" is not an HTTP\(S\) origin/],
    ['port 0', ['https://github.com:0'], /is not an HTTP\(S\) origin/],
    ['port 65536', ['https://github.com:65536'], /is not an HTTP\(S\) origin/],
    ['another scheme', ['ftp://github.com'], /is not an HTTP\(S\) origin/],
    ['a duplicate', ['https://a.example.com', 'https://b.example.com', 'https://a.example.com'],
      'egress[2] "https://a.example.com" is listed twice'],
  ])('refuses %s in the original\'s words', (_name, list, want) => {
    if (typeof want === 'string') expect(egressViolation(list)).toBe(want);
    else expect(egressViolation(list)).toMatch(want);
  });
});

describe('harnessEgressViolations', () => {
  it('refuses each requested origin outside the Harness list, naming the list', () => {
    expect(harnessEgressViolations(['https://github.com', 'https://evil.example.com'], 'claude', ['https://github.com',
      'https://api.github.com'])).toEqual(['egress origin "https://evil.example.com" is not one of Harness claude\'s ' +
      "origins (https://github.com, https://api.github.com): a claude Harness agent reaches its toolchain's origins " +
      'only, which the platform sets']);
  });

  it('says none when the platform gives the Harness no origin', () => {
    expect(harnessEgressViolations(['https://github.com'], 'claude', [])[0]).toContain("Harness claude's origins (none)");
  });
});
