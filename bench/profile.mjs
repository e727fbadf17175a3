// `npm run bench:profile`: where our CPU goes per read operation. Starts the standalone
// sandbox as bench/side-by-side.mjs does (500 agents in `kagent`, one with a workload, and
// with --list2k 2,000 in `tenant`), then for each operation `serve --kubeconfig` under
// `node --cpu-prof`, sends it the operation's requests one at a time, stops it and prints
// the profile's heaviest functions by self and by inclusive time (per request, in ms).
// The .cpuprofile files stay in --out for a flame graph (Chrome DevTools, speedscope).
//
//   node bench/profile.mjs [--ops info,get,status,list] [--requests 300] [--cache] [--list2k] [--out dir] [--top 25]
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { request, seedAgents, seedWorkload, startSandbox, startServe } from './lib/processes.mjs';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : fallback;
};
const flag = (name) => args.includes(`--${name}`);
const PATHS = {
  info: '/api/v1/info',
  get: '/api/v1/agents/kagent/a-0250',
  status: '/api/v1/agents/kagent/a-0000/status',
  list: '/api/v1/agents?namespace=kagent',
  list2k: '/api/v1/agents?namespace=tenant',
};
const ops = opt('ops', 'info,get,status,list').split(',');
const requests = Number(opt('requests', '300'));
const top = Number(opt('top', '25'));
const cache = flag('cache');
const out = resolve(opt('out', join(tmpdir(), 'am-profiles')));
const dir = mkdtempSync(join(tmpdir(), 'am-profile-'));
const children = [];
const log = (line) => process.stderr.write(`profile: ${line}\n`);

/**
 * Self and inclusive ms per function over the samples within `window` (µs of the monotonic
 * clock, which the profile's timestamps and process.hrtime share), divided by `per`.
 */
function summarize(file, per, window) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  let at = profile.startTime;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (n) => {
    const { functionName, url, lineNumber } = n.callFrame;
    const short = url.replace(/^file:\/\//, '').replace(/.*node_modules\//, '').replace(/.*\/dist\//, 'dist/');
    return `${functionName || '(anonymous)'} ${short}:${lineNumber + 1}`;
  };
  const self = new Map();
  const incl = new Map();
  // A sample's package: the nearest frame (from the leaf up) in a dependency or in dist/.
  const packageOf = (url) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ?? (/\/dist\/(.*)$/.exec(url) ? `dist/${/\/dist\/(.*)$/.exec(url)[1]}` : undefined);
  const byPackage = new Map();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    // Only the timed requests: start-up and shutdown are not per-request costs.
    if (at < window.from || at > window.to) return;
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const node = byId.get(id);
    const name = node.callFrame.functionName;
    if (name === '(idle)' || name === '(program)') return;
    busy += dt;
    self.set(label(node), (self.get(label(node)) ?? 0) + dt);
    let pkg;
    for (let up = id; up !== undefined && !pkg; up = parent.get(up)) pkg = packageOf(byId.get(up).callFrame.url);
    pkg ??= name.startsWith('(') ? name : 'node';
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + dt);
    const seen = new Set();
    for (let up = id; up !== undefined; up = parent.get(up)) {
      const l = label(byId.get(up));
      if (seen.has(l)) continue;
      seen.add(l);
      incl.set(l, (incl.get(l) ?? 0) + dt);
    }
  });
  const rows = (m) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([l, ms]) => `  ${(ms / per).toFixed(3).padStart(8)}  ${l}`);
  return [`busy ${(busy / per).toFixed(3)} ms/request`, 'by package (nearest frame):', ...rows(byPackage), 'self:', ...rows(self), 'inclusive:', ...rows(incl)].join('\n');
}

try {
  const kubeconfig = join(dir, 'kubeconfig');
  const sandbox = await startSandbox(kubeconfig);
  children.push(sandbox.child);
  log('seeding');
  await seedAgents(sandbox, 'kagent', 500, 'a');
  if (ops.includes('list2k')) await seedAgents(sandbox, 'tenant', 2000, 't');
  await seedWorkload(sandbox, 'kagent', 'a-0000');
  mkdirSync(out, { recursive: true });
  for (const op of ops) {
    const profDir = join(out, op + (cache ? '-cached' : ''));
    rmSync(profDir, { recursive: true, force: true });
    const serve = await startServe(kubeconfig, {
      readCache: cache, namespaces: ['tenant'], nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profDir}`],
    });
    if (cache) {
      for (let i = 0; i < 600; i++) {
        if (JSON.parse((await request(serve.url, '/api/v1/info')).body).readCache.state === 'ready') break;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    for (let i = 0; i < 20; i++) await request(serve.url, PATHS[op]);
    const started = process.hrtime.bigint();
    for (let i = 0; i < requests; i++) {
      const r = await request(serve.url, PATHS[op]);
      if (r.status !== 200) throw new Error(`${op}: ${r.status} ${r.body.slice(0, 200)}`);
    }
    const ended = process.hrtime.bigint();
    const wall = Number(ended - started) / 1e6 / requests;
    await new Promise((done) => {
      serve.child.once('exit', done);
      serve.child.kill('SIGTERM');
    });
    const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
    process.stdout.write(`\n== ${op}${cache ? ' (cached)' : ''}: ${requests} requests, ${wall.toFixed(2)} ms each; ${join(profDir, file)}\n`);
    process.stdout.write(`${summarize(join(profDir, file), requests, { from: Number(started / 1000n), to: Number(ended / 1000n) })}\n`);
  }
} finally {
  for (const child of children.reverse()) child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
