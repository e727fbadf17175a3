import { defineConfig } from 'vitest/config';

// The package's own suites: unit tests beside the code (src/**/*.test.ts) and the
// end-to-end suites that drive the server through @kubernetes/client-node and kubectl (test/).
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
