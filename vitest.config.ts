import { defineConfig } from 'vitest/config';
import { TEST_GLOBS } from './test/projects/test-globs.js';
import { sandboxSourceAlias } from './vitest.shared.js';

// Three projects (docs/development.md, "Suite layout"). A file's name says its project: an
// integration test (one that starts a server or a process, itself or through test/support) is
// `*.int.test.ts`, every other test file a unit test; test/projects/classify.int.test.ts checks
// every name against the file's source. packages/client's tests are the `client` project:
// clients of one service its global set-up starts. The reliability suite has its own config.
const CLIENT_TESTS = 'packages/client/test/**/*.test.ts';
const unit = TEST_GLOBS;
const integration = TEST_GLOBS.map((glob) => glob.replace(/\*\.test\.ts$/, '*.int.test.ts'));
const excluded = ['test/reliability/**', '**/node_modules/**', '**/dist/**', CLIENT_TESTS];
const shared = {
  testTimeout: 30_000,
  hookTimeout: 30_000,
  pool: 'forks' as const,
};

export default defineConfig({
  resolve: { alias: sandboxSourceAlias },
  test: {
    // Finds the external programs the tests run once, for every worker.
    globalSetup: ['test/global-setup/tools.ts', 'test/global-setup/render-cache.ts'],
    // One worker more than the machine's two cores: integration files spend part of their time
    // waiting (on helm, git, a registry, Prometheus's scrape tick), and a third worker fills it.
    // 66 -> 58 s on two cores; a fourth was slower (62 s), the workers then competing for CPU.
    maxWorkers: 3,
    reporters: ['default'],
    // Statement coverage of the production code, only when asked (`npm run test:coverage`, which
    // passes --coverage): V8's own counters, read by @vitest/coverage-v8, so the code runs as it
    // does in `npm test`. The figure to keep from falling is "Statements" of the summary.
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts', 'packages/*/src/**/*.ts'],
      exclude: ['**/*.test.ts', '**/*.d.ts', 'src/core/openapi.generated.ts'],
      reporter: ['text-summary', 'json-summary'],
      reportsDirectory: 'coverage',
    },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: unit,
          exclude: [...excluded, '**/*.int.test.ts'],
          ...shared,
          // Files share a worker's module graph instead of a fresh process each: evaluating
          // the ~460 modules again for every file was a third of the run's time. This holds
          // because the code keeps no module-level state a test could leak (caches are
          // WeakMaps keyed by the schema object, metrics registries are per instance, the one
          // process-wide OpenTelemetry context manager is set once) and the suites restore
          // what they change (kubeconfig.test.ts its environment variables). Check a change
          // here with `vitest run --project unit --sequence.shuffle.files`.
          isolate: false,
          setupFiles: ['test/projects/unit-guard.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: integration,
          exclude: excluded,
          ...shared,
          // Files share a worker's modules too: a fresh module graph per file (the Kubernetes
          // client, the MCP SDK, the service) cost ~0.8 s a file, a third of the run. Each file
          // closes what it starts and forks few processes itself (short-lived tools go through
          // one small helper process): test/projects/integration-guard.ts fails a file that
          // does not.
          isolate: false,
          setupFiles: ['test/projects/integration-guard.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'client',
          include: [CLIENT_TESTS],
          exclude: excluded.filter((glob) => glob !== CLIENT_TESTS),
          ...shared,
          isolate: false,
          // `serve --sandbox` once, for this project's files only (a project's global set-up runs
          // when one of its files is selected); its origin reaches them as AGENT_MANAGER_URL.
          globalSetup: ['test/global-setup/agent-manager-service.ts'],
        },
      },
    ],
  },
});
