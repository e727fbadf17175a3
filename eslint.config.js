// Lint rules that keep the architecture honest (docs/architecture.md):
// - src/core is pure: it imports no I/O module and no adapter;
// - layers import downwards only (transport/http below REST and MCP; kube/ below kube/cache);
// - production code never imports test wiring (test/support/, any testing/ folder), and reaches the sandbox package
//   (packages/kube-sandbox) only through a dynamic import when the sandbox is asked for;
//   tests use the package through its entry points, never a file below packages/;
// - a workspace package imports nothing from the product (its code stays inside it);
// - files stay small (max-lines): one reason to change per file, readable in one sitting;
// - one formatting style (ESLint Stylistic), written to match the code as it stood, so
//   `npm run lint` checks it and `npx eslint --fix .` applies it. Stylistic rather than
//   prettier: it enforces the same spacing, quotes, semicolons and trailing commas while
//   keeping the compact argument lists the code uses, with no repository-wide reformat.
import { dirname, relative, resolve, sep } from 'node:path';
import js from '@eslint/js';
import stylistic from '@stylistic/eslint-plugin';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';
import { siblingFolders } from './eslint-rules/sibling-folders.js';

// `self-contained/no-leaving-package`: a relative import in packages/<name>/ must resolve
// inside packages/<name>/ (a pattern on the specifier cannot tell how deep a file sits).
const selfContained = {
  rules: {
    'no-leaving-package': {
      meta: { type: 'problem', schema: [] },
      create(context) {
        const file = context.filename;
        const parts = relative(import.meta.dirname, file).split(sep);
        const packageRoot = resolve(import.meta.dirname, parts[0], parts[1]);
        const check = (node) => {
          const spec = node.source?.value;
          if (typeof spec !== 'string' || !spec.startsWith('.')) return;
          const target = resolve(dirname(file), spec);
          if (target !== packageRoot && !target.startsWith(packageRoot + sep)) {
            context.report({ node: node.source, message: `${spec} leaves the package: a package imports nothing outside itself` });
          }
        };
        return {
          ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check,
        };
      },
    },
  },
};

const ioModules = [
  'node:http', 'node:https', 'node:http2', 'node:net', 'node:tls', 'node:dns', 'node:dgram',
  'node:fs', 'node:fs/promises', 'node:child_process', 'node:worker_threads', 'node:cluster',
  'http', 'https', 'net', 'tls', 'dns', 'fs', 'fs/promises', 'child_process',
  '@kubernetes/client-node', 'express', 'pino', 'pino-http', 'undici', 'tar', 'raw-body', 'path-to-regexp',
  '@modelcontextprotocol/sdk', 'prom-client',
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'coverage/**', 'src/core/openapi.generated.ts',
    'packages/client/src/openapi.generated.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  stylistic.configs.customize({
    indent: 2, quotes: 'single', semi: true, jsx: false, braceStyle: '1tbs', commaDangle: 'always-multiline', arrowParens: true,
  }),
  {
    rules: {
      // The code breaks long lists and expressions by meaning, not by a fixed shape.
      '@stylistic/list-style': 'off',
      '@stylistic/operator-linebreak': 'off',
      '@stylistic/indent-binary-ops': 'off',
      '@stylistic/multiline-ternary': 'off',
      '@stylistic/max-statements-per-line': 'off',
      '@stylistic/quote-props': 'off',
      '@stylistic/quotes': ['error', 'single', { avoidEscape: true, allowTemplateLiterals: 'always' }],
      // Lines of at most 120 characters, strings and templates included: a long text is cut at a
      // word boundary into '+' pieces. A URL or a regular expression literal stays whole.
      '@stylistic/max-len': ['error', { code: 120, ignoreRegExpLiterals: true, ignoreUrls: true }],
    },
  },
  {
    // Tests and development tooling keep a long string or template whole (an expected text
    // stays one piece to search for).
    files: ['**/*.test.ts', 'test/**', 'packages/*/test/**', 'bench/**', 'scripts/**', 'hack/**',
      'eslint.config.js'],
    rules: {
      '@stylistic/max-len': ['error', {
        code: 120, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true,
      }],
    },
  },
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', URL: 'readonly', Buffer: 'readonly', fetch: 'readonly', AbortController: 'readonly', AbortSignal: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly', structuredClone: 'readonly', setImmediate: 'readonly', queueMicrotask: 'readonly', Response: 'readonly', Request: 'readonly', Headers: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    // Functions of at most 60 lines (blank lines and comments aside): an operation reads, decides
    // in a pure function, then acts, each step named. One that must stay longer says why in the
    // disable comment above it.
    files: ['src/**/*.ts', 'packages/kube-sandbox/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }],
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['**/testing/*', '**/testing/**', '**/test/support/*', '**/test/support/**'], message: 'production code must not import test wiring (test/support/)' },
        ],
      }],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['**/testing/*', '**/testing/**', '**/test/support/*', '**/test/support/**'], message: 'production code must not import test wiring (test/support/)' },
          { group: ['@agent-manager/kube-sandbox', '@agent-manager/kube-sandbox/*', '**/packages/**'], message: 'reach the sandbox only through src/sandbox-cluster.ts (a dynamic import when it is asked for)' },
        ],
      }],
    },
  },
  {
    // Test code reaches the sandbox through its entry points (the package name and /cli), as
    // any other user of the package would, never through a file of its source.
    files: ['src/**/*.test.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['**/packages/**', '@agent-manager/kube-sandbox/*', '!@agent-manager/kube-sandbox/cli'], message: 'use the sandbox through @agent-manager/kube-sandbox or @agent-manager/kube-sandbox/cli' },
        ],
      }],
    },
  },
  {
    files: ['packages/*/src/**/*.ts', 'packages/*/test/**/*.ts', 'packages/*/*.ts'],
    plugins: { 'self-contained': selfContained },
    rules: {
      'self-contained/no-leaving-package': 'error',
      'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }],
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['agent-manager', 'agent-manager/*', '@agent-manager/*'], message: 'a package imports nothing from the product or another workspace' },
        ],
      }],
    },
  },
  {
    // A package's production code never imports its tests' wiring (its test/ folder).
    files: ['packages/*/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['agent-manager', 'agent-manager/*', '@agent-manager/*'], message: 'a package imports nothing from the product or another workspace' },
          { group: ['**/test/*', '**/test/**'], message: 'production code must not import test wiring (the package\'s test/)' },
        ],
      }],
    },
  },
  {
    // Layers import downwards only, so no two folders import each other at run time. A
    // different rule from the no-restricted-imports blocks above, so neither replaces the other.
    files: ['src/transport/http/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [{ group: ['../rest/*', '../mcp/*', '../../app.js'], message: 'transport/http is what REST and MCP stand on: it imports neither (src/app.ts joins them)' }],
      }],
    },
  },
  {
    // No import cycle between files, whatever the folders: a cycle makes load order decide
    // which side sees the other half-initialised, and is how one feature ends up needing
    // all of them. Type-only imports are left out (they vanish at run time), as the rule does.
    // Packages are not followed: none imports our files back, so no cycle passes through one
    // (following them into node_modules was 70 % of the lint's time, 28.5 s of 41 s).
    files: ['src/**/*.ts', 'packages/*/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      // Specifiers name the compiled `.js`; the file beside the importer is the `.ts`.
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'], extensionAlias: { '.js': ['.ts', '.js'] } })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // No cycle between sibling folders either (src/service/writes ⇄ src/service/commit): the same
    // rule one level up, with the graph of each package's production files (eslint-rules/).
    files: ['src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { folders: siblingFolders },
    rules: { 'folders/no-sibling-cycle': ['error', { roots: [resolve(import.meta.dirname, 'src')] }] },
  },
  {
    files: ['packages/kube-sandbox/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { folders: siblingFolders },
    rules: { 'folders/no-sibling-cycle': ['error', { roots: [resolve(import.meta.dirname, 'packages/kube-sandbox/src')] }] },
  },
  {
    files: ['src/kube/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [{ group: ['./cache/*'], allowTypeImports: true, message: 'kube/ takes only types from kube/cache (the ports it implements); the cache is built on kube/, not the other way' }],
      }],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    ignores: ['src/core/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: ioModules.map((name) => ({ name, message: 'src/core is pure: no I/O modules (docs/architecture.md)' })),
        patterns: [
          { group: ['../*', '!../core/*'], message: 'src/core imports nothing from the adapters' },
          { group: ['**/testing/*', '**/testing/**', '**/test/support/*', '**/test/support/**'], message: 'production code must not import test wiring (test/support/)' },
        ],
      }],
    },
  },
  {
    // The same rule one folder down (src/core/<feature>/): `..` is still src/core there.
    files: ['src/core/*/**/*.ts'],
    ignores: ['src/core/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: ioModules.map((name) => ({ name, message: 'src/core is pure: no I/O modules' })),
        patterns: [
          { group: ['../../*', '!../../core/*'], message: 'src/core imports nothing from the adapters' },
          { group: ['**/testing/*', '**/testing/**', '**/test/support/*', '**/test/support/**'], message: 'production code must not import test wiring (test/support/)' },
        ],
      }],
    },
  },
  {
    files: ['**/*.test.ts', 'test/**', 'bench/**', 'packages/*/test/**'],
    rules: {
      'max-lines': ['error', { max: 700 }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
