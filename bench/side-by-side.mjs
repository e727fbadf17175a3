// `npm run bench:side-by-side` (and the end of `npm run bench`): our read operations
// measured beside the least a program can do, every party in its own process.
//
// The standalone sandbox (`agent-manager sandbox`, controllers off) holds 500 agents in
// `kagent` (one of them with a Deployment, a pod and a Warning event) and 2,000 in `tenant`.
// Against it run `serve --kubeconfig` twice, with `--read-cache=false` and with the cache,
// and the minimal program (bench/lib/minimal.mjs: node:https, the same API requests,
// parse, merge, serialize). Requests go one at a time, alternating between the three, so
// load changes hit all alike; the table gives medians, the ratio to the minimal program,
// our CPU per operation from /proc/<pid>/stat, the API requests one operation makes
// (sandbox counters) and the load average as each row ends. Then the memory of the cache:
// two fresh processes that manage only `tenant` (2,000 agents), with and without the cache,
// each after one list. Writes bench/side-by-side.md and puts it into bench/results.md in
// place of its previous side-by-side section (`npm run bench` ends with this run).
//
//   node bench/side-by-side.mjs [--rounds 600] [--warmup-seconds 3] [--warmup N] [--only info,get]
//   (--warmup-seconds: how long each party answers a row's request before the row is measured, and
//   at least 300 requests, scaled down for the lists as the rounds are; --warmup: that many requests
//   instead of the time; --only: these rows alone, printed and not written). A service runs warm,
//   so the rows measure warm code: V8 still optimizes and deoptimizes our request path for about
//   10,000 `/info` requests (`node --trace-opt --trace-deopt`), and a larger program pays longer for
//   its unoptimized code.
//   The warm-up is given in time, so a cheap row warms with many requests (and a list with no
//   fewer than it had before: 100 for the 500-agent list, 60 for the 2,000-agent ones).
//   `/info` takes ten times the rounds: one round is a fraction of a millisecond, and 600 of them
//   are too short a sample for a median that holds from one run to the next.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuMs, request, rssMiB, seedAgents, seedWorkload, startMinimal, startSandbox, startServe, api } from './lib/processes.mjs';
import { machine, median } from './lib/report.mjs';

const args = process.argv.slice(2);
const at = args.indexOf('--rounds');
const rounds = Math.max(20, Number(at >= 0 ? args[at + 1] : process.env.BENCH_ROUNDS ?? 600));
const wAt = args.indexOf('--warmup');
const warmup = wAt >= 0 ? Number(args[wAt + 1]) : undefined;
if (warmup !== undefined && (!Number.isInteger(warmup) || warmup < 0)) {
  process.stderr.write(`bench: --warmup must be a whole number of requests, got ${args[wAt + 1]}\n`);
  process.exit(2);
}
const sAt = args.indexOf('--warmup-seconds');
const warmupSeconds = Number(sAt >= 0 ? args[sAt + 1] : 3);
if (!(warmupSeconds >= 0)) {
  process.stderr.write(`bench: --warmup-seconds must be a number of seconds, got ${args[sAt + 1]}\n`);
  process.exit(2);
}
const oAt = args.indexOf('--only');
const only = oAt >= 0 ? new Set(String(args[oAt + 1] ?? '').split(',')) : undefined;
const outPath = join(dirname(fileURLToPath(import.meta.url)), 'side-by-side.md');
const resultsPath = join(dirname(fileURLToPath(import.meta.url)), 'results.md');
const load1 = () => loadavg()[0].toFixed(1);
const log = (line) => process.stderr.write(`bench: ${line}\n`);
const dir = mkdtempSync(join(tmpdir(), 'am-bench-'));
const children = [];
const loadBefore = loadavg().map((n) => n.toFixed(1)).join(' ');

async function apiRequests(sandbox, base, path) {
  await api(sandbox, 'POST', '/sandbox/counters/reset');
  const r = await request(base, path);
  if (r.status !== 200) throw new Error(`${base}${path}: ${r.status} ${r.body.slice(0, 200)}`);
  const snap = await api(sandbox, 'GET', '/sandbox/counters');
  // The admin endpoints are not counted: the total is the operation's own requests.
  return snap.total;
}

/** Put the section into bench/results.md, replacing its previous side-by-side section (or appending it). */
function spliceIntoResults(section) {
  if (!existsSync(resultsPath)) return;
  const text = readFileSync(resultsPath, 'utf8');
  const at = text.indexOf('## Side by side');
  const before = (at >= 0 ? text.slice(0, at) : text).trimEnd();
  const next = at >= 0 ? text.slice(at + 1).search(/^## /m) : -1;
  const after = next >= 0 ? text.slice(at + 1 + next) : '';
  writeFileSync(resultsPath, `${before}\n\n${section.trimEnd()}\n${after ? `\n${after}` : ''}`);
}

try {
  const kubeconfig = join(dir, 'kubeconfig');
  const sandbox = await startSandbox(kubeconfig);
  children.push(sandbox.child);
  log(`sandbox at ${sandbox.url}; seeding 500 + 2,000 agents`);
  await seedAgents(sandbox, 'kagent', 500, 'a');
  await seedAgents(sandbox, 'tenant', 2000, 't');
  await seedWorkload(sandbox, 'kagent', 'a-0000');

  const direct = await startServe(kubeconfig, { readCache: false, namespaces: ['tenant'] });
  const cached = await startServe(kubeconfig, { readCache: true, namespaces: ['tenant'] });
  children.push(direct.child, cached.child);
  for (let i = 0; i < 600; i++) {
    const info = JSON.parse((await request(cached.url, '/api/v1/info')).body);
    if (info.readCache.state === 'ready') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const infoBytes = (await request(cached.url, '/api/v1/info')).body;
  const tenantList = (await request(cached.url, '/api/v1/agents?namespace=tenant')).body;
  writeFileSync(join(dir, 'info.json'), infoBytes);
  writeFileSync(join(dir, 'list.json'), tenantList);
  writeFileSync(join(dir, 'ca.pem'), sandbox.ca);
  const minimal = await startMinimal(sandbox, join(dir, 'ca.pem'), join(dir, 'info.json'), join(dir, 'list.json'));
  children.push(minimal.child);

  const ops = [
    { id: 'info', label: 'GET /api/v1/info', path: '/api/v1/info', floor: 'a bare node:http server answering the same bytes', rounds: rounds * 10 },
    { id: 'get', label: 'get_agent', path: '/api/v1/agents/kagent/a-0250', floor: 'two parallel GETs' },
    { id: 'status', label: 'get_agent_status', path: '/api/v1/agents/kagent/a-0000/status', floor: 'five parallel reads' },
    { id: 'list', label: 'list_agents (500)', path: '/api/v1/agents?namespace=kagent', floor: 'three parallel LISTs', rounds: Math.ceil(rounds / 3) },
    { id: 'list2kSummary', label: 'list_agents (2,000, details=false)', path: '/api/v1/agents?namespace=tenant&details=false', floor: 'three parallel LISTs, summarized', rounds: Math.ceil(rounds / 5) },
    { id: 'list2k', label: 'list_agents (2,000)', path: '/api/v1/agents?namespace=tenant', floor: 'serializing the same answer from memory', floorPath: '/mem/agents', rounds: Math.ceil(rounds / 5) },
  ];
  const parties = [['direct', direct], ['cached', cached], ['minimal', minimal]];
  const rows = [];
  for (const op of ops.filter((o) => !only || only.has(o.id))) {
    const n = op.rounds ?? rounds;
    const pathOf = (who) => (who === 'minimal' && op.floorPath ? op.floorPath : op.path);
    // The warm-up alternates as the measurement does, so no party's connection idles meanwhile
    // (a bare node:http server closes an idle keep-alive connection after 5 s). It lasts the
    // time given and at least 300 requests per party, scaled down for the lists as their rounds are (never up).
    const warm = Math.ceil(((warmup ?? 300) * Math.min(n, rounds)) / rounds);
    const until = warmup === undefined ? performance.now() + warmupSeconds * parties.length * 1000 : 0;
    for (let i = 0; i < warm || performance.now() < until; i++) {
      for (const [who, p] of parties) await request(p.url, pathOf(who));
    }
    const times = { direct: [], cached: [], minimal: [] };
    const cpu0 = Object.fromEntries(parties.map(([who, p]) => [who, cpuMs(p.child.pid)]));
    for (let i = 0; i < n; i++) {
      // Alternate who goes first, so no party always follows the same one.
      const order = parties.slice(i % 3).concat(parties.slice(0, i % 3));
      for (const [who, p] of order) {
        const r = await request(p.url, pathOf(who));
        if (r.status !== 200) throw new Error(`${who} ${op.path}: ${r.status}`);
        times[who].push(r.ms);
      }
    }
    const cpu = Object.fromEntries(parties.map(([who, p]) => [who, (cpuMs(p.child.pid) - cpu0[who]) / n]));
    const calls = {
      direct: await apiRequests(sandbox, direct.url, op.path),
      cached: await apiRequests(sandbox, cached.url, op.path),
      minimal: op.floorPath ? 0 : await apiRequests(sandbox, minimal.url, op.path),
    };
    const med = Object.fromEntries(Object.entries(times).map(([who, t]) => [who, median(t)]));
    rows.push({ op, n, med, cpu, calls, load: load1() });
    log(`${op.label}: direct ${med.direct.toFixed(2)} ms, cached ${med.cached.toFixed(2)} ms, minimal ${med.minimal.toFixed(2)} ms`);
  }
  if (only) {
    // A focused run: the rows asked for, as one line each, and nothing written.
    for (const { op, med, cpu, load } of rows) {
      const r = (who) => (med[who] / med.minimal).toFixed(2);
      process.stdout.write(`${op.id}: minimal ${med.minimal.toFixed(3)} ms, ours ${med.direct.toFixed(3)} ms (${r('direct')}×, `
        + `CPU ${cpu.direct.toFixed(3)} ms), cached ${med.cached.toFixed(3)} ms (${r('cached')}×), load ${load}\n`);
    }
  } else {
    const rss = {
      direct: rssMiB(direct.child.pid), cached: rssMiB(cached.child.pid), minimal: rssMiB(minimal.child.pid),
    };
    const cacheInfo = JSON.parse((await request(cached.url, '/api/v1/info')).body).readCache;
    for (const p of [direct, cached, minimal]) p.child.kill('SIGTERM');

    // The cache of 2,000 agents alone: fresh processes managing only `tenant`, after one list.
    log('memory with 2,000 agents cached');
    const only = { namespaces: ['tenant'], defaultNamespace: 'tenant' };
    const cached2k = await startServe(kubeconfig, { ...only, readCache: true });
    const direct2k = await startServe(kubeconfig, { ...only, readCache: false });
    children.push(cached2k.child, direct2k.child);
    let info2k;
    for (let i = 0; i < 600; i++) {
      info2k = JSON.parse((await request(cached2k.url, '/api/v1/info')).body).readCache;
      if (info2k.state === 'ready') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    for (const p of [cached2k, direct2k]) {
      const r = await request(p.url, '/api/v1/agents');
      if (r.status !== 200) throw new Error(`list of tenant: ${r.status}`);
    }
    await new Promise((r) => setTimeout(r, 1000));
    const rss2k = { cached: rssMiB(cached2k.child.pid), direct: rssMiB(direct2k.child.pid), load: load1() };

    const m = machine();
    const f = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
    const ratio = (row, who) => row.med[who] / row.med.minimal;
    const item1 = rows.filter((r) => ['info', 'get', 'status', 'list'].includes(r.op.id));
    const worst = item1.reduce((a, b) => (ratio(b, 'direct') > ratio(a, 'direct') ? b : a));
    const list2k = rows.find((r) => r.op.id === 'list2k');
    const summary = rows.find((r) => r.op.id === 'list2kSummary');
    const lines = [
      '## Side by side: our process beside the minimal program',
      '',
      `${m.date}, Node ${m.node}, ${m.cpu} (${m.cores} cores), load average before ${loadBefore}, after ${loadavg().map((n) => n.toFixed(1)).join(' ')}`
        + ` (the machine is shared: other work ran meanwhile). Each party in its own process against the standalone sandbox;`
        + ` ${rounds} alternating requests per operation (ten times as many for /info, a third for the 500-agent list, a fifth for the 2,000-agent list), one at a time after ${warmup === undefined ? `${warmupSeconds} s of warm-up requests per party and row (at least 300, scaled as the rounds for the lists)` : `${warmup} warm-up requests per party (scaled as the rounds for the lists)`}, medians.`,
      '',
      '| Operation | minimal counterpart | minimal (ms) | ours, no cache (ms) | ratio | ours, cached (ms) | ratio | our CPU/op no cache (ms) | our CPU/op cached (ms) | API requests/op: minimal / no cache / cached | load average (1 min) at the row\'s end |',
      '|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|',
      ...rows.map(({ op, med, cpu, calls, load }) => `| ${op.label} | ${op.floor} | ${f(med.minimal)} | ${f(med.direct)} | ${(med.direct / med.minimal).toFixed(2)}× | ${f(med.cached)} | ${(med.cached / med.minimal).toFixed(2)}× | ${f(cpu.direct)} | ${f(cpu.cached)} | ${calls.minimal} / ${calls.direct} / ${calls.cached} | ${load} |`),
      '',
      `Without the cache the largest ratio of info, get, status and the 500-agent list is ${ratio(worst, 'direct').toFixed(2)}× (${worst.op.label}); with the cache warm, the 2,000-agent list is ${ratio(list2k, 'cached').toFixed(2)}× serializing it from memory, with ${list2k.calls.cached} API requests.`
        + ` The 2,000-agent summary list (details=false) costs ${f(summary.cpu.direct)} ms of our CPU without the cache and ${f(summary.cpu.cached)} ms with it, against ${f(list2k.cpu.direct)} and ${f(list2k.cpu.cached)} ms for the full list.`,
      '',
      `Memory (RSS): with the cache of 2,000 agents (a fresh process managing only \`tenant\`, ${info2k.objects} objects: 2,000 Agents and 2,000 HelmReleases, the namespace's other types, after one list) ${rss2k.cached.toFixed(0)} MiB, the same process without the cache ${rss2k.direct.toFixed(0)} MiB (load ${rss2k.load}). After the run above: ours without the cache ${rss.direct.toFixed(0)} MiB, with the cache of 2,500 agents (${cacheInfo.objects} objects) ${rss.cached.toFixed(0)} MiB, the minimal program ${rss.minimal.toFixed(0)} MiB (these include the garbage of the run's large lists).`,
      `CPU per operation is read from /proc in clock ticks of 10 ms, summed over all requests of the row and divided by their number.`,
      'Where the CPU goes per operation: `npm run bench:profile` (node --cpu-prof of each read).',
      '',
    ];
    writeFileSync(outPath, lines.join('\n'));
    spliceIntoResults(lines.join('\n'));
    process.stdout.write(lines.join('\n'));
  }
} finally {
  for (const child of children.reverse()) child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
