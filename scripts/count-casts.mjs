// Counts the type assertions (`x as T`, `<T>x`; `as const` left out) and non-null assertions
// (`x!`) in the production files of src/ and packages/kube-sandbox/src, and lists the
// assertions with no comment on their line or the line above (docs/development.md, "Casts").
// usage: node scripts/count-casts.mjs [--list] [root]
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** The production .ts files below `dir` (tests, test data and generated files left out). */
function productionFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return ['testdata', 'testing', 'node_modules'].includes(entry.name) ? [] : productionFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.generated.ts') ? [path] : [];
  });
}

/** Every assertion of `file`: its kind, line (1-based) and whether a comment explains it. */
export function assertionsOf(path, text = readFileSync(path, 'utf8')) {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const lines = text.split('\n');
  const commented = (line) => /\/\/|\/\*|^\s*\*/.test(lines[line] ?? '') || /\/\/|\*\/\s*$/.test(lines[line - 1] ?? '');
  const found = [];
  const visit = (node) => {
    const isCast = (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node))
      && !(ts.isTypeReferenceNode(node.type) && node.type.typeName.getText(source) === 'const');
    if (isCast || ts.isNonNullExpression(node)) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ kind: isCast ? 'as' : '!', line: end + 1, commented: commented(end) || commented(line) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

export function countCasts(root, trees = ['src', 'packages/kube-sandbox/src']) {
  const result = {};
  for (const tree of trees) {
    const all = productionFiles(join(root, tree))
      .flatMap((file) => assertionsOf(file).map((a) => ({ ...a, file: relative(root, file) })));
    result[tree] = {
      as: all.filter((a) => a.kind === 'as').length,
      nonNull: all.filter((a) => a.kind === '!').length,
      uncommented: all.filter((a) => a.kind === 'as' && !a.commented),
    };
  }
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = resolve(process.argv.slice(2).find((a) => !a.startsWith('--')) ?? '.');
  for (const [tree, counts] of Object.entries(countCasts(root))) {
    console.log(`${tree}: ${counts.as} as-casts (${counts.uncommented.length} without a comment), ${counts.nonNull} non-null assertions`);
    if (process.argv.includes('--list')) for (const a of counts.uncommented) console.log(`  ${a.file}:${a.line}`);
  }
}
