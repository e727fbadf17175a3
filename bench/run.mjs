// `npm run bench`: what agent-manager's own layer costs per operation, on loopback.
//
// Starts the sandbox API server and the real app in this process (bench/lib/setup.mjs),
// then, for each operation (bench/lib/cases.mjs), drives it with autocannon for a fixed
// time and reports requests/s, p50/p99 latency and API calls per operation (sandbox
// counted for one request). Beside each: the floor (a bare node:http server answering the
// same bytes; for /info also a minimal express 5 app answering them) and the sandbox's own
// cost for the request the operation makes most. Then the same with every API request
// delayed by 10 ms, where round trips dominate, with the number of sequential calls
// measured for one request. Writes bench/results.md and
// prints it, then runs bench/side-by-side.mjs (separate processes; it adds its section to
// results.md). Ends by itself (about 3-4 minutes with the defaults).
//
//   npm run bench [-- --seconds 3 --connections 10 --latency-ms 10 --only list --no-write]
//   (or BENCH_SECONDS / BENCH_CONNECTIONS in the environment)
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchCases } from './lib/cases.mjs';
import { probe, runCase, startExpressFloor, startFloor } from './lib/measure.mjs';
import { latencyTable, machine, throughputTable } from './lib/report.mjs';
import { startBenchTarget } from './lib/setup.mjs';

const args = process.argv.slice(2);
const option = (name, env, fallback) => {
  const at = args.indexOf(`--${name}`);
  const inline = args.find((a) => a.startsWith(`--${name}=`));
  const value = inline ? inline.split('=')[1] : at >= 0 ? args[at + 1] : process.env[env];
  return value === undefined || value === '' ? fallback : value;
};
const seconds = Math.min(Math.max(Number(option('seconds', 'BENCH_SECONDS', 3)), 1), 60);
const connections = Math.min(Math.max(Number(option('connections', 'BENCH_CONNECTIONS', 10)), 1), 256);
const latencyMs = Math.max(Number(option('latency-ms', 'BENCH_LATENCY_MS', 10)), 1);
const only = option('only', 'BENCH_ONLY', '');
const write = !args.includes('--no-write');
const resultsPath = join(dirname(fileURLToPath(import.meta.url)), 'results.md');

const started = Date.now();
const m = machine();
const log = (line) => process.stderr.write(`bench: ${line}\n`);
const target = await startBenchTarget();
const { sandbox } = target;
const cases = benchCases().filter((c) => !only || c.id.includes(only));
const sandboxAuth = { authorization: `Bearer ${sandbox.serviceAccountToken}` };
let run = 0;

/** Our app: one timed run (a create run's agents are removed after it). */
async function measureApp(c) {
  process.env.BENCH_CREATE_PREFIX = `c${++run}`;
  process.env.BENCH_CREATE_NAMESPACE = 'bench-writes';
  const result = await runCase({ url: target.url, seconds, connections, ...c });
  if (c.writes) target.clearWrites();
  return result;
}

const measureSandbox = (c) => (c.sandbox
  ? runCase({ url: sandbox.url, tls: { ca: sandbox.caPem }, seconds, connections, ...c.sandbox, headers: sandboxAuth })
  : undefined);

const failures = [];
const checkRun = (what, r) => {
  if (r && (r.non2xx > 0 || r.errors > 0)) failures.push(`${what}: ${r.non2xx} non-2xx, ${r.errors} errors of ${r.requests}`);
};

try {
  // Two requests of each case first (the first may warm up or, for a create, write the
  // namespace's shared source): each must succeed; the second's answer is the floor's
  // constant, its count on the sandbox counters the API calls of one operation, and a
  // round-trip meter on it the number of sequential calls.
  const probes = new Map();
  for (const c of cases) {
    for (const round of [1, 2]) {
      const body = c.probeBody?.replace('bench-probe', `bench-probe-${round}`) ?? c.body;
      sandbox.counters.reset();
      const meter = target.meter();
      const response = await probe(target.url, { ...c, body });
      meter.stop();
      if (response.status !== c.status) throw new Error(`${c.label} answered ${response.status}: ${response.body.slice(0, 300)}`);
      probes.set(c.id, { response, depth: meter.depth(), calls: sandbox.counters.snapshot().total });
    }
    if (c.writes) target.clearWrites();
  }

  const plain = [];
  for (const c of cases) {
    log(`${c.label}: ours`);
    const app = await measureApp(c);
    const { calls } = probes.get(c.id);
    log(`${c.label}: floor`);
    const floorServer = await startFloor(probes.get(c.id).response);
    const floor = await runCase({
      url: floorServer.url, seconds, connections, ...c, setupRequest: undefined, body: c.body ?? c.probeBody,
    });
    await floorServer.close();
    // `/info` also against a minimal express 5 app: the framework's own share of our floor.
    let expressFloor;
    if (c.id === 'info') {
      log(`${c.label}: express 5 floor`);
      const expressServer = await startExpressFloor(probes.get(c.id).response, c.path);
      expressFloor = await runCase({ url: expressServer.url, seconds, connections, ...c, setupRequest: undefined });
      await expressServer.close();
      checkRun(`${c.label} (express floor)`, expressFloor);
    }
    if (c.sandbox) log(`${c.label}: sandbox ${c.sandbox.label}`);
    const raw = await measureSandbox(c);
    checkRun(`${c.label} (ours)`, app);
    checkRun(`${c.label} (floor)`, floor);
    checkRun(`${c.label} (sandbox)`, raw);
    const ownMs = raw && calls > 0 ? 1000 / app.rps - calls * (1000 / raw.rps) : 1000 / app.rps;
    plain.push({
      label: c.label, app, calls, floor, expressFloor, sandbox: raw, sandboxLabel: c.sandbox?.label, ownMs,
    });
  }

  sandbox.faults.setLatency(latencyMs);
  const delayed = [];
  for (const c of cases) {
    log(`${c.label}: ours, API latency ${latencyMs} ms`);
    const app = await measureApp(c);
    const { calls } = probes.get(c.id);
    const raw = await measureSandbox(c);
    checkRun(`${c.label} (ours, +${latencyMs} ms)`, app);
    checkRun(`${c.label} (sandbox, +${latencyMs} ms)`, raw);
    delayed.push({
      label: c.label, app, calls, depth: probes.get(c.id).depth, sandbox: raw, sandboxLabel: c.sandbox?.label,
    });
  }
  sandbox.faults.setLatency(0);

  const text = [
    '# Benchmark results',
    '',
    `Machine: ${m.cpu}, ${m.cores} cores, Node ${m.node}, load average ${m.load} when the bench started (other work on the machine shows in every figure). Date: ${m.date}.`,
    `Command: \`npm run bench\` (${seconds} s per run, ${connections} connections, autocannon in 2 worker threads; sandbox and app in one process, loopback). Whole run: ${Math.round((Date.now() - started) / 1000)} s.`,
    '',
    'How to read these tables: docs/reliability.md, "Benchmarks".',
    '',
    '## Without injected latency',
    '',
    throughputTable(plain),
    '',
    `## With ${latencyMs} ms added to every API request`,
    '',
    latencyTable(delayed, latencyMs),
    '',
    ...(failures.length > 0 ? ['## Failed requests', '', ...failures.map((f) => `- ${f}`), ''] : []),
  ].join('\n');
  console.log(text);
  if (write && !only) {
    writeFileSync(resultsPath, `${text}\n${keptSections(text)}`);
    log(`wrote ${resultsPath}`);
  }
} finally {
  await target.close();
}
/**
 * The sections of the results file this run does not write (measured by the other benches, or
 * written by hand), kept in their order so that a run replaces only its own tables.
 */
function keptSections(text) {
  if (!existsSync(resultsPath)) return '';
  const titles = new Set(text.split('\n').filter((line) => line.startsWith('## ')));
  const ownTitle = (title) => titles.has(title) || /^## (With \d+ ms added|Failed requests)/.test(title);
  const sections = readFileSync(resultsPath, 'utf8').split(/^(?=## )/m).slice(1);
  return sections.filter((section) => !ownTitle(section.split('\n')[0])).join('');
}

// The side-by-side comparison (its own processes; it puts its section into results.md).
let sideBySide = 0;
if (write && !only) {
  log('side by side: node bench/side-by-side.mjs');
  sideBySide = spawnSync(process.execPath, [join(dirname(fileURLToPath(import.meta.url)), 'side-by-side.mjs')], { stdio: 'inherit' }).status ?? 1;
}
process.exit(failures.length > 0 || sideBySide !== 0 ? 1 : 0);
