import { defineConfig } from 'vitest/config';
import { sandboxSourceAlias } from './vitest.shared.js';

// Unit tests sit beside the code (src/**/*.test.ts); cross-module suites live in test/;
// the workspace packages' suites (packages/*/src, packages/*/test) run in the same pass.
// The reliability suite has its own config (vitest.reliability.config.ts).
export default defineConfig({
  resolve: { alias: sandboxSourceAlias },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    exclude: ['test/reliability/**', '**/node_modules/**', '**/dist/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default'],
  },
});
