#!/usr/bin/env node
// Regenerates the flag reference in docs/operations.md from the flag tables
// (src/config/flags.ts, through the compiled dist/config/flags-doc.js), between the
// flags:start and flags:end markers. Run it after changing a flag:
//
//   npm run build && node scripts/gen-operations-doc.mjs
//   node scripts/gen-operations-doc.mjs --check   # exit 1 when the doc is stale
//
// src/config/flags-doc.test.ts makes the same comparison in the test suite.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const compiled = join(root, 'dist', 'config', 'flags-doc.js');
if (!existsSync(compiled)) {
  console.error('gen-operations-doc: dist/config/flags-doc.js is missing; run npm run build first');
  process.exit(2);
}
const { withFlagsDoc } = await import(pathToFileURL(compiled).href);
const docPath = join(root, 'docs', 'operations.md');
const doc = readFileSync(docPath, 'utf8');
const next = withFlagsDoc(doc);
if (process.argv.includes('--check')) {
  if (next !== doc) {
    console.error('docs/operations.md is stale: run npm run build && node scripts/gen-operations-doc.mjs');
    process.exit(1);
  }
} else if (next !== doc) {
  writeFileSync(docPath, next);
  console.log('gen-operations-doc: docs/operations.md updated');
}
