import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findTool, TEST_TOOLS, testTool, TOOLS_ENV, toolTestMode } from './test-tools.js';

describe('test tools', () => {
  const saved = { path: process.env.PATH, tools: process.env[TOOLS_ENV], ci: process.env.CI };
  const restore = (key: string, value: string | undefined) => {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  };
  afterEach(() => {
    restore('PATH', saved.path);
    restore(TOOLS_ENV, saved.tools);
    restore('CI', saved.ci);
  });

  it('are handed to every worker by the global set-up, one entry per tool', () => {
    const provided = JSON.parse(process.env[TOOLS_ENV] ?? 'null') as Record<string, string | null> | null;
    expect(provided).not.toBeNull();
    expect(Object.keys(provided!).sort()).toEqual([...TEST_TOOLS].sort());
  });

  it('finds an executable on PATH without a shell, and not a file that cannot be run', () => {
    const dir = mkdtempSync(join(tmpdir(), 'test-tools-'));
    try {
      writeFileSync(join(dir, 'runnable'), '#!/bin/sh\n', { mode: 0o755 });
      writeFileSync(join(dir, 'plain'), 'text', { mode: 0o644 });
      process.env.PATH = dir;
      expect(findTool('runnable')).toBe(join(dir, 'runnable'));
      expect(findTool('plain')).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('take the global set-up\'s answer over the PATH, and an absent tool skips a suite but fails it in CI', () => {
    process.env[TOOLS_ENV] = JSON.stringify({ kubectl: '/opt/kubectl', promtool: null });
    expect(testTool('kubectl')).toBe('/opt/kubectl');
    process.env.CI = 'false';
    expect(toolTestMode(['promtool'], 'apt-get install -y prometheus')).toEqual({
      mode: 'skip', reason: 'promtool not installed (apt-get install -y prometheus, or node scripts/test-setup.mjs)',
    });
    process.env.CI = 'true';
    expect(toolTestMode(['promtool'], 'apt-get install -y prometheus').mode).toBe('fail');
    expect(toolTestMode(['kubectl'], 'x')).toEqual({ mode: 'run', reason: 'kubectl at /opt/kubectl' });
  });
});
