import { describe, expect, it } from 'vitest';
import { harnessOrigins, parseHarnessEgress } from './harness-egress.js';

describe('parseHarnessEgress', () => {
  it('reads entries separated by ";" and origins by ",", trimmed', () => {
    expect(parseHarnessEgress(' claude = https://github.com, https://*.githubusercontent.com ; codex=https://api.openai.com;'))
      .toEqual({ egress: { claude: ['https://github.com', 'https://*.githubusercontent.com'],
        codex: ['https://api.openai.com'] } });
  });

  it('takes an empty text for no Harness and an empty entry for a Harness without origins', () => {
    expect(parseHarnessEgress('')).toEqual({ egress: {} });
    expect(parseHarnessEgress('claude=')).toEqual({ egress: { claude: [] } });
  });

  it.each([
    ['an entry without =', 'claude', 'entry "claude" is not <harness>=<origin>[,<origin>…] (entries are separated by ";", ' +
      'origins by ",")'],
    ['a Harness name that is not an object name', 'Claude=https://github.com',
      'entry "Claude=https://github.com": "Claude" is not a Harness name (a lower-case DNS-1123 name such as claude)'],
    ['a Harness listed twice', 'claude=https://a.example.com;claude=https://b.example.com',
      'Harness claude is listed twice; give each Harness one entry with all its origins'],
    ['an origin the Agent would refuse', 'claude=https://github.com/path',
      /^Harness claude: egress\[0\] "https:\/\/github.com\/path" is not an HTTP\(S\) origin/],
    ['an origin twice', 'claude=https://github.com,https://github.com',
      'Harness claude: egress[1] "https://github.com" is listed twice'],
  ])('refuses %s, saying what to write', (_name, text, want) => {
    const parsed = parseHarnessEgress(text);
    expect(parsed).toHaveProperty('problem');
    const problem = (parsed as { problem: string }).problem;
    if (typeof want === 'string') expect(problem).toBe(want);
    else expect(problem).toMatch(want);
  });
});

describe('harnessOrigins', () => {
  it('gives a Harness not listed no origin, even one named like an object property', () => {
    const parsed = parseHarnessEgress('claude=https://github.com') as { egress: Record<string, string[]> };
    expect(harnessOrigins(parsed.egress, 'claude')).toEqual(['https://github.com']);
    expect(harnessOrigins(parsed.egress, 'constructor')).toEqual([]);
  });
});
