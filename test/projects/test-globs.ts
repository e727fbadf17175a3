/**
 * Where test files live, as the root vitest config includes them (paths relative to the
 * repository). A file's project is its name: `*.int.test.ts` integration, other `*.test.ts` unit.
 */
export const TEST_GLOBS = ['src/**/*.test.ts', 'test/**/*.test.ts', 'packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts'];
