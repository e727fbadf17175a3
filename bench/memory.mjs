// `npm run bench:memory`: the read cache's live heap per agent, and the CPU of a fleet's list page.
// The standalone sandbox (controllers off) is filled with agents as a reconciled cluster holds them
// (bench/lib/fleet-seed.mjs: release, Agent, Deployment, pod, revision); for each fleet size,
// `serve --read-cache=true` starts on it with a heap probe (bench/lib/heap-probe.mjs), syncs its stores,
// answers one list page (so what reads remember is counted too), then collects garbage and reports its
// heap. Heap per agent is (heap − heap with no agent) / agents. At the largest size it then times
// `GET /api/v1/agents?details=false`: CPU ms per request (user+system from /proc, 10 ms ticks summed
// over the requests) and the wall median. Heavy (about 50,000 objects at 10,000 agents): run it alone.
//
//   node bench/memory.mjs [--agents 500,3000,10000] [--requests 30]
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedFleet } from './lib/fleet-seed.mjs';
import { cpuMs, request, startSandbox, startServe } from './lib/processes.mjs';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : fallback;
};
const sizes = opt('agents', '500,3000,10000').split(',').map(Number);
const requests = Number(opt('requests', '30'));
const OBJECTS_PER_AGENT = 5;
const probe = fileURLToPath(new URL('./lib/heap-probe.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'am-memory-'));
const children = [];
const log = (line) => process.stderr.write(`bench memory: ${line}\n`);
const mib = (bytes) => (bytes / 2 ** 20).toFixed(1);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const LIST = '/api/v1/agents?details=false';

async function until(check, what) {
  for (let i = 0; i < 6000; i++) {
    const value = await check();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A `serve` with the read cache on this fleet, synced, after one list page. */
async function startSynced(kubeconfig, agents) {
  const heapFile = join(dir, `heap-${agents}.json`);
  process.env.BENCH_HEAP_FILE = heapFile;
  const serve = await startServe(kubeconfig, {
    readCache: true, namespaces: ['kagent'], defaultNamespace: 'kagent', nodeArgs: ['--expose-gc', '--import', probe],
  });
  children.push(serve.child);
  await until(async () => {
    const info = JSON.parse((await request(serve.url, '/api/v1/info')).body);
    return info.readCache?.state === 'ready' && info.readCache.objects >= agents * OBJECTS_PER_AGENT;
  }, `the cache of ${agents} agents`);
  const page = await request(serve.url, LIST);
  if (page.status !== 200) throw new Error(`list answered ${page.status}`);
  // The sandbox's own sample agents (kagent namespace) are in every page, the baseline's too.
  const listed = JSON.parse(page.body).agents.length;
  if (listed < agents) throw new Error(`list answered ${listed} agents, fewer than ${agents}`);
  return { ...serve, heapFile, bytes: page.body.length };
}

async function heapOf(serve) {
  rmSync(serve.heapFile, { force: true });
  process.kill(serve.child.pid, 'SIGUSR2');
  return until(() => existsSync(serve.heapFile) && JSON.parse(readFileSync(serve.heapFile, 'utf8')), 'the heap probe');
}

try {
  const kubeconfig = join(dir, 'kubeconfig');
  const sandbox = await startSandbox(kubeconfig);
  children.push(sandbox.child);
  const rows = [];
  let seeded = 0;
  let base;
  let cpuRow;
  for (const agents of [0, ...sizes]) {
    if (agents > seeded) {
      log(`seeding agents ${seeded}..${agents - 1}`);
      await seedFleet(sandbox, 'kagent', seeded, agents);
      seeded = agents;
    }
    const serve = await startSynced(kubeconfig, agents);
    const heap = await heapOf(serve);
    if (!heap.gc) throw new Error('the heap probe ran without --expose-gc');
    base ??= heap.heapUsed;
    log(`${agents} agents: heap ${mib(heap.heapUsed)} MiB, RSS ${mib(heap.rss)} MiB`);
    rows.push({ agents, ...heap, bytes: serve.bytes });
    if (agents === Math.max(...sizes)) {
      for (let i = 0; i < 5; i++) await request(serve.url, LIST);
      const times = [];
      const cpu0 = cpuMs(serve.child.pid);
      for (let i = 0; i < requests; i++) times.push((await request(serve.url, LIST)).ms);
      cpuRow = { agents, cpu: (cpuMs(serve.child.pid) - cpu0) / requests, wall: median(times) };
    }
    serve.child.kill('SIGTERM');
  }
  const out = [
    `${new Date().toISOString()}, Node ${process.version}, load average ${loadavg()[0].toFixed(1)} at the end.`,
    '',
    '| agents | live heap (MiB) | per agent (KiB) | RSS (MiB) | list page (KiB) |',
    '|---:|---:|---:|---:|---:|',
    ...rows.map((r) => `| ${r.agents.toLocaleString('en')} | ${mib(r.heapUsed)} | ` +
      `${r.agents ? ((r.heapUsed - base) / r.agents / 1024).toFixed(1) : '–'} | ${mib(r.rss)} | ${(r.bytes / 1024).toFixed(0)} |`),
    '',
    cpuRow ? `\`GET ${LIST}\` over ${cpuRow.agents.toLocaleString('en')} cached agents: ${cpuRow.cpu.toFixed(1)} ms CPU ` +
      `per request (${requests} requests), wall median ${cpuRow.wall.toFixed(1)} ms.` : '',
    '',
  ];
  process.stdout.write(out.join('\n'));
} finally {
  for (const child of children.reverse()) child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
