// `node bench/cpu.mjs` (after `npm run build`): our CPU per uncached read, from /proc, beside the
// minimal program's, requests alternating between the parties so a busy machine's load hits all
// alike. `--base <dir>`: another build's dist/ (e.g. main's, copied to dist-base/) runs beside this
// one, a before/after in one run. Prints CPU ms per request of each party (user+system, clock ticks
// of 10 ms summed over the row), wall medians with their ratio to the minimal program, and the load
// average as each row ends. The first requests run unoptimized code: --warmup requests go first.
//
//   node bench/cpu.mjs [--base dist-base] [--requests 2000] [--warmup 300] [--ops info,get,status,list]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cpuMs, request, seedAgents, seedWorkload, startMinimal, startSandbox, startServe } from './lib/processes.mjs';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : fallback;
};
const PATHS = {
  info: '/api/v1/info',
  get: '/api/v1/agents/kagent/a-0250',
  status: '/api/v1/agents/kagent/a-0000/status',
  list: '/api/v1/agents?namespace=kagent',
};
const requests = Number(opt('requests', '2000'));
const warmup = Number(opt('warmup', '300'));
const ops = opt('ops', 'info,get,status,list').split(',');
const base = opt('base');
const dir = mkdtempSync(join(tmpdir(), 'am-cpu-'));
const children = [];
const load = () => loadavg().map((n) => n.toFixed(1)).join(' ');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const f = (x) => (x >= 10 ? x.toFixed(1) : x.toFixed(3));

try {
  const kubeconfig = join(dir, 'kubeconfig');
  const sandbox = await startSandbox(kubeconfig);
  children.push(sandbox.child);
  await seedAgents(sandbox, 'kagent', 500, 'a');
  await seedWorkload(sandbox, 'kagent', 'a-0000');
  const parties = [];
  const serve = (entry) => startServe(kubeconfig, { readCache: false, namespaces: ['tenant'], entry });
  if (base) parties.push(['base', await serve(join(resolve(base), 'main.js'))]);
  parties.push(['ours', await serve(undefined)]);
  for (const [, p] of parties) children.push(p.child);
  writeFileSync(join(dir, 'info.json'), (await request(parties.at(-1)[1].url, PATHS.info)).body);
  writeFileSync(join(dir, 'list.json'), '{}');
  writeFileSync(join(dir, 'ca.pem'), sandbox.ca);
  const minimal = await startMinimal(sandbox, join(dir, 'ca.pem'), join(dir, 'info.json'), join(dir, 'list.json'));
  children.push(minimal.child);
  parties.push(['minimal', minimal]);
  process.stdout.write(`load average before ${load()}; ${requests} requests per operation (a twentieth for the list)\n`);
  for (const op of ops) {
    const n = op === 'list' ? Math.ceil(requests / 20) : requests;
    for (const [, p] of parties) for (let i = 0; i < (op === 'list' ? 10 : warmup); i++) await request(p.url, PATHS[op]);
    const times = parties.map(() => []);
    const cpu0 = parties.map(([, p]) => cpuMs(p.child.pid));
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < parties.length; k++) {
        const at = (i + k) % parties.length;
        const r = await request(parties[at][1].url, PATHS[op]);
        if (r.status !== 200) throw new Error(`${parties[at][0]} ${op}: ${r.status} ${r.body.slice(0, 200)}`);
        times[at].push(r.ms);
      }
    }
    const cpu = parties.map(([, p], k) => (cpuMs(p.child.pid) - cpu0[k]) / n);
    const floor = median(times.at(-1));
    const cells = parties.map(([who], k) => `${who} ${f(cpu[k])} ms CPU, ${f(median(times[k]))} ms (${(median(times[k]) / floor).toFixed(2)}x)`);
    process.stdout.write(`${op}: ${cells.join('; ')}; load ${loadavg()[0].toFixed(1)}\n`);
  }
} finally {
  for (const child of children.reverse()) child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
