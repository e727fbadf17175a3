import { describe, expect, it } from 'vitest';
import { toolsetText, toolsetWidening, wideningRollbackNote } from './toolset-reach.js';

describe('toolsetWidening', () => {
  it.each([
    ['none to full', ['preset:none'], ['preset:full'], { certain: true, added: ['preset:full'] }],
    ['none to no toolset (implicit full access)', ['preset:none'], undefined, { certain: true, added: [] }],
    ['read-only to full beside it', ['preset:read-only'], ['preset:read-only', 'preset:full'], { certain: true, added: ['preset:full'] }],
    ['none to read-only: from nothing, anything is more', ['preset:none'], ['preset:read-only'], { certain: true, added: ['preset:read-only'] }],
    ['read-only to a tool that may lie outside it', ['preset:read-only'], ['tool:kubectl_apply'], { certain: false, added: ['tool:kubectl_apply'] }],
    ['a server added to another', ['server:a'], ['server:a', 'server:b', 'server:b'], { certain: false, added: ['server:b'] }],
    ['a malformed current value to a toolset', 'preset:read-only', ['preset:read-only'], { certain: true, added: ['preset:read-only'] }],
  ])('says a toolset reaches more: %s', (_case, current, next, widening) => {
    expect(toolsetWidening(current, next)).toEqual(widening);
  });

  it.each([
    ['the same toolset', ['preset:read-only'], ['preset:read-only']],
    ['full to none', ['preset:full'], ['preset:none']],
    ['full to anything', ['preset:full'], ['tool:x', 'server:y']],
    ['no toolset (implicit full access) to full', undefined, ['preset:full']],
    ['null (implicit full access) to read-only', null, ['preset:read-only']],
    ['a narrower list', ['server:a', 'server:b'], ['server:b']],
    ['read-only to none', ['preset:read-only'], ['preset:none']],
    ['the same selectors in another order', ['tool:a', 'tool:b'], ['tool:b', 'tool:a']],
  ])('says nothing when the next toolset reaches no more: %s', (_case, current, next) => {
    expect(toolsetWidening(current, next)).toBeUndefined();
  });
});

describe('wideningRollbackNote', () => {
  it('names the old and the new toolset of a rollback from none to full', () => {
    expect(wideningRollbackNote(3, ['preset:none'], ['preset:full'])).toBe(
      'revision 3\'s toolset reaches more than the current one: from ["preset:none"] to ["preset:full"], every tool ' +
      'the gateway exposes',
    );
  });

  it('calls no toolset implicit full access', () => {
    expect(wideningRollbackNote(2, ['preset:read-only'], undefined)).toBe(
      'revision 2\'s toolset reaches more than the current one: from ["preset:read-only"] to no toolset (implicit full ' +
      'access to every tool the gateway exposes)',
    );
  });

  it('says "may" and names the selectors the current toolset lacks when the presets decide', () => {
    expect(wideningRollbackNote(4, ['preset:read-only'], ['preset:read-only', 'server:kubernetes'])).toBe(
      'revision 4\'s toolset may reach more than the current one: from ["preset:read-only"] to ' +
      '["preset:read-only","server:kubernetes"] (server:kubernetes not in the current toolset)',
    );
  });

  it('has no note for a rollback that narrows access or keeps it', () => {
    expect(wideningRollbackNote(1, ['preset:full'], ['preset:none'])).toBeUndefined();
    expect(wideningRollbackNote(1, ['preset:none'], ['preset:none'])).toBeUndefined();
  });
});

describe('toolsetText', () => {
  it('writes a toolset as JSON and no toolset as what it means', () => {
    expect(toolsetText(['preset:none'])).toBe('["preset:none"]');
    expect(toolsetText(null)).toBe('no toolset (implicit full access to every tool the gateway exposes)');
  });
});
