#!/usr/bin/env node
// Generates the values table of helm/agent-manager/README.md from values.yaml (keys and
// defaults) and values.schema.json (types and descriptions), between the markers
// <!-- values-table:start --> and <!-- values-table:end -->. The schema is the one
// place a value is described; test/chart-package checks the README is up to date.
//
//   node hack/chart-readme.mjs          rewrite the table in place
//   node hack/chart-readme.mjs --check  exit 1 when the README is stale
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const START = '<!-- values-table:start -->';
export const END = '<!-- values-table:end -->';

const isMap = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Every leaf of `values` (scalars, lists, empty maps, open maps) with its schema node. */
export function valueLeaves(values, schema, prefix = '') {
  const rows = [];
  for (const [key, value] of Object.entries(values)) {
    const path = prefix ? `${prefix}.${key}` : key;
    const node = schema?.properties?.[key];
    if (isMap(value) && Object.keys(value).length > 0 && node?.properties) {
      rows.push(...valueLeaves(value, node, path));
    } else {
      rows.push({ path, value, node });
    }
  }
  return rows;
}

function typeOf(node) {
  if (!node) return '';
  const type = Array.isArray(node.type) ? node.type.join(' or ') : node.type;
  if (type === 'array' && node.items?.type) return `list of ${node.items.type}s`;
  if (node.enum) return `${type}: ${node.enum.join(', ')}`;
  return type ?? '';
}

// Prose cells escape angle brackets (so `<owner>` is not read as HTML); code cells only pipes.
const code = (text) => `\`${String(text).replace(/\|/g, '\\|')}\``;
const cell = (text) => String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The Markdown table, one row per leaf value. */
export function valuesTable(valuesText, schema) {
  const rows = valueLeaves(parse(valuesText) ?? {}, schema);
  const lines = ['| Value | Type | Default | Description |', '|---|---|---|---|'];
  for (const { path, value, node } of rows) {
    lines.push(`| \`${path}\` | ${cell(typeOf(node))} | ${code(JSON.stringify(value))} | ${cell(node?.description ?? '')} |`);
  }
  return lines.join('\n');
}

/** `readme` with the text between the markers replaced by `table`. */
export function withTable(readme, table) {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start === -1 || end < start) throw new Error(`the README has no ${START} … ${END} markers`);
  return `${readme.slice(0, start + START.length)}\n${table}\n${readme.slice(end)}`;
}

function main() {
  const chart = join(dirname(fileURLToPath(import.meta.url)), '..', 'helm', 'agent-manager');
  const readmePath = join(chart, 'README.md');
  const readme = readFileSync(readmePath, 'utf8');
  const table = valuesTable(readFileSync(join(chart, 'values.yaml'), 'utf8'), JSON.parse(readFileSync(join(chart, 'values.schema.json'), 'utf8')));
  const next = withTable(readme, table);
  if (process.argv.includes('--check')) {
    if (next !== readme) {
      console.error('helm/agent-manager/README.md is stale: run node hack/chart-readme.mjs');
      process.exit(1);
    }
    return;
  }
  writeFileSync(readmePath, next);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
