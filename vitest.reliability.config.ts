import { defineConfig } from 'vitest/config';
import { sandboxSourceAlias } from './vitest.shared.js';

// The reliability suite (test/reliability, docs/reliability.md): concurrency, fuzzing,
// fault injection, registry outages, a soak and a graceful shutdown under load. Its
// size comes from RELIABILITY_BUDGET=short|full (short by default, as in CI).
// Files run one at a time: the soak measures latency and memory, and the other suites'
// load must not leak into its figures. The global setup builds dist/ when it is missing
// or older than src/ (the shutdown suite runs `node dist/main.js serve`).
export default defineConfig({
  resolve: { alias: sandboxSourceAlias },
  test: {
    include: ['test/reliability/**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**'],
    globalSetup: ['test/global-setup/tools.ts', 'test/reliability/global-setup.ts'],
    testTimeout: 600_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    // One worker for all files instead of a fresh one per file: each file evaluated the service,
    // the Kubernetes client and the sandbox again (about a second each). The files close what
    // they start, and the soak compares its own first and last windows, so what an earlier
    // file left in the heap is in both.
    isolate: false,
    // The soak forces a collection before each memory sample when it can.
    execArgv: ['--expose-gc'],
    reporters: ['default'],
  },
});
