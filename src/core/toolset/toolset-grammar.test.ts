import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import {
  MAX_TOOLSET_SELECTORS, SELECTOR_PATTERN, SHIPPED_PRESETS, TOOLSET_HEADER, TOOL_NAMES_REFUSAL,
  goTrimSpace, joinToolsetHeader, parseToolsetHeader, readToolset, removedArgumentViolation,
  toolsetViolation, validateRemovedArguments, validateToolset,
} from './toolset-grammar.js';

// The exact texts clients match on.
const REQUIRED =
  'toolset is required: declare which of the gateway\'s tools the agent can use, e.g. toolset: ["preset:read-only"]. Shipped presets: preset:read-only, preset:none, preset:infrastructure, preset:agent-platform, preset:full — preset:none for a chat-only agent without tools, preset:full for the deliberate choice of every tool the gateway exposes';
const EMPTY =
  'toolset is empty; use ["preset:none"] for an agent without tools (an empty list is refused so that "no tools" is never confused with implicit full access)';
const cap = (n: number): string =>
  `toolset has ${n} selectors, more than the inline cap of 32: define a preset (muster toolsetPresets) and reference it as preset:<name>`;
const reserved = (q: string): string =>
  `toolset selector ${q}: the toolset: prefix is reserved for shared toolsets; reference a preset as preset:<name>`;
const labelOnly = (q: string): string =>
  `toolset selector ${q}: label: selectors are allowed inside presets only; use a preset that selects by label (preset:infrastructure, preset:agent-platform)`;
const malformed = (q: string): string =>
  `toolset selector ${q} is not preset:<name>, server:<name>, workflow:<name> or tool:<name> (exact names, no whitespace or commas)`;
const unsendable = (q: string): string =>
  `toolset selector ${q} has a character the X-Muster-Toolset header cannot carry: only visible ASCII (no control characters, no letters beyond ASCII)`;
const tooLong = (q: string, n: number): string =>
  `toolset selector ${q} is ${n} characters long, more than 137 (a kind such as workflow: and a name of at most 128 characters, the longest MCP tool name)`;
const NOT_A_LIST =
  'toolset must be a list of selector strings, e.g. toolset: ["preset:read-only"] (each preset:<name>, server:<name>, workflow:<name> or tool:<name>)';

const many = (n: number): string[] => Array.from({ length: n }, (_, i) => `tool:x_a_${i}`);

describe('toolsetViolation', () => {
  // The 15 cases of the Go TestValidateToolsetGrammar, with the full texts.
  it.each<[string, unknown, boolean, string | undefined]>([
    ['absent on create is refused naming every shipped preset', undefined, true, REQUIRED],
    ['absent on update is unchanged', undefined, false, undefined],
    ['empty list points at preset:none', [], true, EMPTY],
    ['empty list on update too', [], false, EMPTY],
    ['one selector of each kind', ['preset:read-only', 'server:github', 'workflow:incident-triage', 'tool:x_mcp-kubernetes_get_pods'], true, undefined],
    ['exactly the cap', many(32), true, undefined],
    ['one over the cap says define a preset', many(33), true, cap(33)],
    ['toolset: is reserved', ['preset:read-only', 'toolset:shared'], true, reserved('"toolset:shared"')],
    ['label: is preset-only', ['label:agent-platform.giantswarm.io/tool-group=infrastructure'], true, labelOnly('"label:agent-platform.giantswarm.io/tool-group=infrastructure"')],
    ['unknown kind', ['pattern:core_*'], true, malformed('"pattern:core_*"')],
    ['missing name', ['server:'], true, malformed('"server:"')],
    ['whitespace is not trimmed', [' preset:read-only'], true, malformed('" preset:read-only"')],
    ['commas belong to the header, not a selector', ['preset:read-only,preset:none'], true, malformed('"preset:read-only,preset:none"')],
    ['kinds are case-sensitive', ['Preset:read-only'], true, malformed('"Preset:read-only"')],
    ['empty selector', [''], true, malformed('""')],
  ])('Go grammar case: %s', (_name, selectors, required, want) => {
    expect(toolsetViolation(selectors, { required })).toBe(want);
  });

  it.each<[string, unknown]>([
    ['the name may hold further colons', ['server:ns:name']],
    ['* is a literal name character', ['tool:*']],
    ['=, /, ; and * in a name', ['tool:a=b/c;d*']],
    ['an unknown preset (the gateway resolves presets)', ['preset:foo']],
    ['a preset name in upper case', ['preset:READ-ONLY']],
    ['duplicates', ['preset:read-only', 'preset:read-only']],
    ['preset:none alone', ['preset:none']],
    ['absent as JSON null on update', null],
  ])('accepts %s', (_name, selectors) => {
    expect(toolsetViolation(selectors, { required: false })).toBeUndefined();
    if (selectors !== null) expect(toolsetViolation(selectors, { required: true })).toBeUndefined();
  });

  it.each<[string, unknown, string]>([
    ['absent as JSON null on create', null, REQUIRED],
    ['a tab inside a name', ['tool:a\tb'], malformed('"tool:a\\tb"')],
    ['a space inside a name', ['tool:a b'], malformed('"tool:a b"')],
    ['a newline inside a name', ['tool:a\nb'], malformed('"tool:a\\nb"')],
    ['a trailing newline ($ is the end of the text)', ['preset:x\n'], malformed('"preset:x\\n"')],
    ['a trailing space', ['preset:read-only '], malformed('"preset:read-only "')],
    ['a carriage return inside a name', ['tool:a\rb'], malformed('"tool:a\\rb"')],
    ['a form feed inside a name', ['tool:a\fb'], malformed('"tool:a\\fb"')],
    ['a comma alone after the kind', ['tool:,'], malformed('"tool:,"')],
    ['a leading BOM, quoted as Go %q does', ['\ufeffpreset:x'], unsendable('"\\ufeffpreset:x"')],
    ['upper-case kind', ['PRESET:x'], malformed('"PRESET:x"')],
    ['no colon', ['read-only'], malformed('"read-only"')],
    ['an empty kind', [':x'], malformed('":x"')],
    ['a bare toolset: prefix is reserved', ['toolset:'], reserved('"toolset:"')],
    ['label:a=b is presets only', ['label:a=b'], labelOnly('"label:a=b"')],
    ['a bare label: prefix is presets only', ['label:'], labelOnly('"label:"')],
    ['TOOLSET: in upper case is merely malformed', ['TOOLSET:x'], malformed('"TOOLSET:x"')],
    ['the first failing selector decides', ['preset:ok', 'pattern:x', 'toolset:y'], malformed('"pattern:x"')],
    ['the cap is counted before any selector (bad entries count)', Array.from({ length: 33 }, () => 'bad'), cap(33)],
    ['the cap is counted with duplicates', Array.from({ length: 40 }, () => 'preset:none'), cap(40)],
    ['a string instead of a list', 'preset:read-only', NOT_A_LIST],
    ['an object instead of a list', { preset: 'read-only' }, NOT_A_LIST],
    ['a number item', ['preset:read-only', 1], NOT_A_LIST],
    ['a null item', [null], NOT_A_LIST],
    ['non-string items outrank the cap', [...many(40), 1], NOT_A_LIST],
  ])('refuses %s', (_name, selectors, want) => {
    expect(toolsetViolation(selectors, { required: true })).toBe(want);
  });

  it.each<[string, string, string]>([
    ['NUL inside a name', 'tool:a\u0000b', '"tool:a\\x00b"'],
    ['ESC inside a name', 'tool:a\u001bb', '"tool:a\\x1bb"'],
    ['DEL inside a name', 'tool:a\u007fb', '"tool:a\\x7fb"'],
    ['VT inside a name (RE2 \\s has no VT)', 'tool:a\vb', '"tool:a\\vb"'],
    ['NBSP inside a name', 'tool:a\u00a0b', '"tool:a\\u00a0b"'],
    ['an ideographic space inside a name', 'tool:a\u3000b', '"tool:a\\u3000b"'],
    ['a trailing NBSP', 'preset:read-only\u00a0', '"preset:read-only\\u00a0"'],
    ['non-ASCII letters', 'server:grün', '"server:grün"'],
    ['CJK letters', 'tool:日本', '"tool:日本"'],
  ])('refuses %s: the selector could never travel in the header', (_name, selector, quoted) => {
    expect(toolsetViolation(['preset:none', selector], { required: true })).toBe(unsendable(quoted));
  });

  it('bounds a selector at a kind and the longest MCP tool name (128 characters), quoting only its start', () => {
    const longest = `workflow:${'w'.repeat(128)}`;
    expect(toolsetViolation([longest, `tool:${'t'.repeat(132)}`], { required: true })).toBeUndefined();
    const over = `tool:${'t'.repeat(133)}`;
    expect(toolsetViolation([over], { required: true })).toBe(tooLong(`"tool:${'t'.repeat(59)}"…`, 138));
    const huge = `tool:${'x'.repeat(99_995)}`;
    const text = toolsetViolation([huge], { required: true })!;
    expect(text).toBe(tooLong(`"tool:${'x'.repeat(59)}"…`, 100_000));
  });

  it('bounds the rendered header at 4 KiB, leaving room under the common 8 KiB header limit', () => {
    const sel = (i: number) => `tool:${String(i).padStart(3, '0')}${'x'.repeat(125)}`; // 133 characters
    const fits = Array.from({ length: 30 }, (_, i) => sel(i)); // 30 × 133 + 29 commas = 4019
    expect(joinToolsetHeader(fits).length).toBeLessThanOrEqual(4096);
    expect(toolsetViolation(fits, { required: true })).toBeUndefined();
    const over = Array.from({ length: 32 }, (_, i) => sel(i)); // 32 × 133 + 31 = 4287
    expect(toolsetViolation(over, { required: true })).toBe(
      'toolset would make an X-Muster-Toolset header of 4287 bytes, more than 4096 (HTTP servers commonly cap all request headers together at 8 KiB, and the caller\'s token travels beside it): define a preset (muster toolsetPresets) and reference it as preset:<name>',
    );
    expect(toolsetViolation(Array.from({ length: 32 }, () => `tool:${'y'.repeat(30_000)}`), { required: true }))
      .toBe(tooLong(`"tool:${'y'.repeat(59)}"…`, 30_005));
  });

  it('names the shipped presets in the documented order', () => {
    expect(SHIPPED_PRESETS).toEqual(['read-only', 'none', 'infrastructure', 'agent-platform', 'full']);
    expect(MAX_TOOLSET_SELECTORS).toBe(32);
    expect(TOOLSET_HEADER).toBe('X-Muster-Toolset');
  });

  it('keeps the ported pattern free of JavaScript-only whitespace', () => {
    // The Go pattern source, kept for reference: RE2 \s = [\t\n\f\r ].
    expect(SELECTOR_PATTERN.source).toBe('^(preset|server|workflow|tool):[^\\t\\n\\f\\r ,]+$');
    expect(SELECTOR_PATTERN.flags).toBe('');
  });
});

describe('validateToolset', () => {
  it('throws invalid_request with the sentinel prefix', () => {
    let err: unknown;
    try {
      validateToolset([], { required: false });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('invalid_request');
    expect((err as AppError).message).toBe(`invalid request: ${EMPTY}`);
    expect((err as AppError).detail).toBe(EMPTY);
  });

  it('passes a valid toolset and an absent one on update', () => {
    expect(() => validateToolset(['preset:read-only'], { required: true })).not.toThrow();
    expect(() => validateToolset(undefined, { required: false })).not.toThrow();
  });
});

describe('removedArgumentViolation', () => {
  it.each<[string, unknown]>([
    ['a list', { toolNames: ['x_a_b'] }],
    ['an empty list', { toolNames: [] }],
    ['a string', { toolNames: 'x' }],
    ['false', { toolNames: false }],
  ])('refuses toolNames given as %s', (_name, input) => {
    expect(removedArgumentViolation(input)).toBe(
      'toolNames never narrowed anything against muster (kagent filters muster\'s meta-tools only); declare a toolset instead, e.g. toolset: ["preset:read-only"]',
    );
    expect(() => validateRemovedArguments(input)).toThrow(`invalid request: ${TOOL_NAMES_REFUSAL}`);
  });

  it.each<[string, unknown]>([
    ['absent', { name: 'a' }],
    ['JSON null', { toolNames: null }],
    ['no object at all', undefined],
  ])('lets toolNames %s pass', (_name, input) => {
    expect(removedArgumentViolation(input)).toBeUndefined();
    expect(() => validateRemovedArguments(input)).not.toThrow();
  });
});

describe('joinToolsetHeader and parseToolsetHeader', () => {
  it('joins with a bare comma', () => {
    expect(joinToolsetHeader(['preset:read-only', 'workflow:incident-triage'])).toBe('preset:read-only,workflow:incident-triage');
  });

  it.each<[string, string, string[]]>([
    ['two selectors with a space', 'preset:read-only, workflow:incident-triage', ['preset:read-only', 'workflow:incident-triage']],
    ['one selector', 'preset:none', ['preset:none']],
    ['only a comma and spaces', ' , ', []],
    ['the empty value', '', []],
    ['empty items between commas are dropped', 'a,,b,', ['a', 'b']],
    ['NEL and NBSP are trimmed like Go TrimSpace', '\u0085preset:x\u00a0', ['preset:x']],
    ['a BOM is kept like Go TrimSpace', '\ufeffpreset:x', ['\ufeffpreset:x']],
    ['a semicolon is not a separator', 'a;b', ['a;b']],
  ])('parses %s', (_name, value, want) => {
    expect(parseToolsetHeader(value)).toEqual(want);
  });

  it('round-trips a toolset', () => {
    const toolset = ['preset:read-only', 'server:ns:name', 'tool:*'];
    expect(parseToolsetHeader(joinToolsetHeader(toolset))).toEqual(toolset);
  });

  it('trims exactly Go\'s white space set', () => {
    expect(goTrimSpace('\t\n\v\f\r \u2028x y\u3000\u205f')).toBe('x y');
    expect(goTrimSpace('   ')).toBe('');
  });
});

describe('readToolset', () => {
  it.each<[string, unknown, unknown]>([
    ['a declared toolset', { agent: { name: 'a' }, toolset: ['preset:read-only', 'tool:x'] }, { toolset: ['preset:read-only', 'tool:x'] }],
    ['no toolset value', { agent: { name: 'a' } }, { implicitFullAccess: true }],
    ['a null toolset (the chart reads it as absent)', { toolset: null }, { implicitFullAccess: true }],
    ['an empty toolset, as declared and said to be invalid', { toolset: [] }, { toolset: [], toolsetProblem: EMPTY }],
    ['a declared toolset with a bad selector, as declared', { toolset: ['preset:none', 'pattern:x'] }, { toolset: ['preset:none', 'pattern:x'], toolsetProblem: malformed('"pattern:x"') }],
    ['a toolset that is not a list', { toolset: 'preset:none' }, { toolsetProblem: NOT_A_LIST }],
    ['a list with a non-string item', { toolset: ['preset:none', 3] }, { toolsetProblem: NOT_A_LIST }],
    ['no values at all', undefined, { implicitFullAccess: true }],
  ])('reads %s', (_name, values, want) => {
    expect(readToolset(values)).toEqual(want);
  });

  it('returns a copy, not the values\' own array', () => {
    const values = { toolset: ['preset:none'] };
    const read = readToolset(values);
    expect('toolset' in read && read.toolset).not.toBe(values.toolset);
  });
});
