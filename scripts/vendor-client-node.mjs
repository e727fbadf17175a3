// The built service's copy of @kubernetes/client-node: one file, holding only what dist/ imports.
// The package's KubeConfig module imports its whole generated API (869 files), and loading them
// was a third of `serve`'s start. esbuild bundles the names dist/ imports into
// dist/vendor/kubernetes-client-node.js, with the packages client-node needs that the production
// install does not keep (ws, js-yaml, openid-client, …); a package the production install keeps
// (undici, jose: our own dependencies) stays an import, one copy shared with our code. client-node
// is a development dependency: `npm prune --omit=dev` drops it, and the image ships the bundle as
// its one copy. dist/'s imports then point at the bundle.
// Tests run the sources, which import the package; the reliability suite runs this build.
// Usage: node scripts/vendor-client-node.mjs [dist-dir]; build.mjs runs it after TypeScript.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMain } from './is-main.mjs';

export const PACKAGE = '@kubernetes/client-node';
const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const VENDORED = join('vendor', 'kubernetes-client-node.js');

/**
 * What the bundle depends on besides dist/'s imports: client-node's and esbuild's versions, and
 * the lockfile, which pins the versions of the copies bundled with client-node.
 */
export function vendorKey() {
  const clientNode = require(`${PACKAGE}/package.json`).version;
  const esbuild = require('esbuild/package.json').version;
  const lock = createHash('sha256').update(readFileSync(join(root, 'package-lock.json'))).digest('hex').slice(0, 16);
  return `${PACKAGE}@${clientNode} esbuild@${esbuild} lock@${lock}`;
}

/** True when `dist`'s bundle was not made from the installed client-node and esbuild, or another lockfile. */
export function vendorStale(dist) {
  const stamp = join(dist, 'vendor', '.inputs');
  return !existsSync(stamp) || readFileSync(stamp, 'utf8').split('\n')[0] !== vendorKey();
}

/**
 * The named imports of client-node in one emitted file (parsed with acorn), and where each
 * specifier sits. Only `import { a, b as c } from` and `export { a } from` are understood;
 * anything else (a default or namespace import, `export *`, a dynamic import) would import
 * names the bundle cannot know, so it is a problem naming the file, and the build fails rather
 * than ship a bundle that lacks them.
 */
function importsOf(acorn, file, text, vendored) {
  const program = acorn.parse(text, { ecmaVersion: 'latest', sourceType: 'module' });
  const names = [];
  const specifiers = [];
  const problems = [];
  let found = 0;
  for (const statement of program.body) {
    const source = statement.source;
    if (!source || ![PACKAGE, vendored].includes(source.value)) continue;
    found += 1;
    const named = statement.type === 'ImportDeclaration'
      ? statement.specifiers.every((s) => s.type === 'ImportSpecifier')
      : statement.type === 'ExportNamedDeclaration';
    if (!named) {
      problems.push(`${file}: only named imports of ${PACKAGE} can be bundled: ${text.slice(statement.start, statement.end)}`);
      continue;
    }
    for (const s of statement.specifiers) names.push(s.type === 'ImportSpecifier' ? s.imported.name : s.local.name);
    specifiers.push({ start: source.start, end: source.end });
  }
  const mentions = text.split(`'${PACKAGE}'`).length + text.split(`"${PACKAGE}"`).length - 2;
  if (mentions > found) problems.push(`${file}: ${PACKAGE} is imported in a way the bundle cannot follow`);
  return { names, specifiers, problems };
}

/** Bundles what `dist` imports of client-node and points those imports at the bundle. */
export async function vendorClientNode(dist) {
  const acorn = await import('acorn');
  const bundle = join(dist, VENDORED);
  const rewrites = [];
  const names = new Set();
  const problems = [];
  for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
    const file = join(entry.parentPath, entry.name);
    if (!entry.isFile() || !file.endsWith('.js') || file === bundle) continue;
    const text = readFileSync(file, 'utf8');
    let vendored = relative(dirname(file), bundle).split(sep).join('/');
    if (!vendored.startsWith('.')) vendored = `./${vendored}`;
    if (!text.includes(PACKAGE) && !text.includes(vendored)) continue;
    const found = importsOf(acorn, file, text, vendored);
    for (const name of found.names) names.add(name);
    problems.push(...found.problems);
    rewrites.push({ file, text, vendored, specifiers: found.specifiers });
  }
  if (problems.length > 0) throw new Error(problems.join('\n'));
  if (names.size === 0) throw new Error(`nothing in ${dist} imports ${PACKAGE}: is it a build of the service?`);

  // The bundle already made from the same names and versions is kept (TypeScript re-emitted a file).
  const stampPath = join(dirname(bundle), '.inputs');
  const stamp = `${vendorKey()}\n${[...names].sort().join('\n')}\n`;
  const fresh = existsSync(bundle) && existsSync(stampPath) && readFileSync(stampPath, 'utf8') === stamp;
  if (!fresh) await bundleNames(names, bundle);
  for (const { file, text, vendored, specifiers } of rewrites) {
    let out = text;
    for (const { start, end } of specifiers.toSorted((a, b) => b.start - a.start)) {
      out = `${out.slice(0, start)}'${vendored}'${out.slice(end)}`;
    }
    if (out !== text) writeFileSync(file, out);
  }
  if (!fresh) writeFileSync(stampPath, stamp);
  return { names: [...names].sort(), files: rewrites.length, bundled: !fresh };
}

/** The folder Node's lookup finds package `name` in from `fromDir` (node_modules, upwards), or undefined. */
function packageDir(name, fromDir) {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(candidate)) return realpathSync(candidate);
    if (dirname(dir) === dir) return undefined;
  }
}

/** The lockfile's entries by install path (`node_modules/ws`), read once. */
let lockPackages;
function lockEntry(dir) {
  lockPackages ??= JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')).packages ?? {};
  return lockPackages[relative(root, dir).split(sep).join('/')];
}

/**
 * Whether the production install (`npm prune --omit=dev`) keeps the package installed at `dir`:
 * its lockfile entry is not a development-only one. A folder the lockfile does not know (a
 * test's scratch copy) counts as kept, so it stays an import and is never copied in.
 */
function keptInProduction(dir) {
  const entry = lockEntry(dir);
  return entry === undefined || entry.dev !== true;
}

/**
 * A package client-node imports stays an import when Node finds the same copy from the bundle's
 * folder as from the importing file and the production install keeps that copy, so our code and
 * the client share it (undici's dispatchers must be one). Anything else is bundled: a copy only
 * client-node needs, which the production install drops with client-node, and a copy private to
 * client-node (npm nests one when versions differ: its js-yaml), since from dist/vendor the import
 * would find another version.
 */
const sharedPackagesExternal = (bundleDir) => ({
  name: 'shared-packages-external',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (isBuiltin(args.path) || args.path === PACKAGE || !args.importer) return undefined;
      const parts = args.path.split('/');
      const name = parts.slice(0, args.path.startsWith('@') ? 2 : 1).join('/');
      const own = packageDir(name, dirname(args.importer));
      const shared = own !== undefined && own === packageDir(name, bundleDir) && keptInProduction(own);
      return shared ? { path: args.path, external: true } : undefined;
    });
  },
});

/** The install folder (`…/node_modules/<name>`) of a bundled input file, or undefined. */
function inputPackageDir(input) {
  const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
  return match ? resolve(root, match[1]) : undefined;
}

async function bundleNames(names, bundle) {
  const esbuild = await import('esbuild');
  mkdirSync(dirname(bundle), { recursive: true });
  const result = await esbuild.build({
    stdin: { contents: `export { ${[...names].sort().join(', ')} } from '${PACKAGE}';`, resolveDir: root, loader: 'js' },
    bundle: true, platform: 'node', format: 'esm', target: 'node24', outfile: bundle, sourcemap: true,
    absWorkingDir: root,
    // The CommonJS packages bundled (ws, form-data, …) require Node's built-ins, which an ES module
    // can only do through a require of its own.
    banner: { js: 'import { createRequire as vendorRequire } from "node:module";\n'
      + 'const require = vendorRequire(import.meta.url);' },
    plugins: [sharedPackagesExternal(dirname(bundle))], metafile: true, logLevel: 'silent',
  }).finally(() => esbuild.stop()); // its service process would stay beside `npm start`'s server
  // Only client-node's own files, its private copies and packages the production install drops may
  // be inside: a second copy of a package that ships would split state (undici's dispatchers)
  // between our code and the client's, and ship twice.
  const ownDir = `node_modules/${PACKAGE}/`;
  const strangers = Object.keys(result.metafile.inputs).filter((input) => {
    if (input === '<stdin>' || input.includes(ownDir)) return false;
    const dir = inputPackageDir(input);
    return dir === undefined || keptInProduction(dir);
  });
  if (strangers.length > 0) {
    throw new Error(`the ${PACKAGE} bundle took in files of packages the production install keeps: ${strangers.join(', ')}`);
  }
}

if (isMain(import.meta.url)) {
  const dist = resolve(process.argv[2] ?? 'dist');
  try {
    const { names, files, bundled } = await vendorClientNode(dist);
    const where = relative(process.cwd(), join(dist, VENDORED));
    console.log(`${PACKAGE}: ${names.length} names for ${files} files ${bundled ? 'bundled into' : 'already in'} ${where}`);
  } catch (err) {
    console.error(`vendor-client-node: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
