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
    // Finds the external programs the tests run once, for every worker.
    globalSetup: ['test/global-setup/tools.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Files share a worker's module graph instead of a fresh process each: evaluating the
    // ~460 modules again for every file was a third of the run's time. This holds because
    // the code keeps no module-level state a test could leak (caches are WeakMaps keyed by
    // the schema object, metrics registries and sandboxes are per instance, the one
    // process-wide OpenTelemetry context manager is set once) and the suites restore what
    // they change (kubeconfig.test.ts its environment variables). Check a change here
    // with `vitest run --sequence.shuffle.files`: another file order must stay green.
    isolate: false,
    maxWorkers: 2,
    reporters: ['default'],
  },
});
