/**
 * vitest.config.ts with test/cost/file-cpu.ts added to every project's set-up files, for
 * test/cost/measure.sh: the same projects, files and workers, each file's CPU logged.
 */
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import base from '../../vitest.config.js';

const projects = (base.test?.projects ?? []) as TestProjectInlineConfiguration[];
const setupFile = 'test/cost/file-cpu.ts';

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    projects: projects.map((project) => ({
      ...project,
      test: { ...project.test, setupFiles: [...[project.test?.setupFiles ?? []].flat(), setupFile] },
    })),
  },
});
