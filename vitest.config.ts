import { defineConfig } from 'vitest/config';

// Unit tests sit beside the code (src/**/*.test.ts); cross-module suites live in test/.
// The reliability suite has its own config (vitest.reliability.config.ts).
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['test/reliability/**', 'node_modules/**', 'dist/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default'],
  },
});
