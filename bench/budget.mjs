// `npm run bench:budget`: how much work a handler may do before it answers and still be
// within 1.3× of a bare node:http server, on this machine. Each party is its own process
// answering GET with the same 900 JSON bytes: bare servers that first keep the CPU busy
// for 0, 20, 40, 60, 80 or 120 µs, a plain express app with one route and no middleware,
// and our `serve --read-cache=false` on the standalone sandbox (its /api/v1/info, about
// 1,250 bytes). One client asks them one request at a time, alternating, over keep-alive
// connections: the side-by-side bench's client, which compares our /api/v1/info with the
// same floor, so this run says what that comparison allows. The table gives each party's
// median and its ratio to the bare server's (bench/results.md, "The handler's budget").
//
//   node bench/budget.mjs [--rounds 3000] [--warmup 300]
//   node bench/budget.mjs --party spin <µs> | --party express   (one party; prints its port)
import { createRequire } from 'node:module';
import http from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request, start, startSandbox, startServe } from './lib/processes.mjs';
import { median } from './lib/report.mjs';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : fallback;
};
const body = Buffer.from(`${JSON.stringify({ version: '0.1.0', padding: 'x'.repeat(860) }, null, 2)}\n`);
const answer = (res) => res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body);

function party(kind, micros) {
  let server;
  if (kind === 'express') {
    // The product no longer uses express; it is still installed as the sandbox package's and the
    // MCP SDK's dependency, and stays here as the yardstick of a framework's own cost.
    const express = createRequire(import.meta.url)('express');
    const app = express();
    app.get('/api/v1/info', (_req, res) => answer(res));
    server = http.createServer(app);
  } else {
    const busyNs = BigInt(Math.round(Number(micros) * 1000));
    server = http.createServer((_req, res) => {
      // Busy, not asleep: a handler's own work holds the CPU the same way.
      const until = process.hrtime.bigint() + busyNs;
      while (process.hrtime.bigint() < until);
      answer(res);
    });
  }
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
}

/** The host's stolen CPU ticks so far (the 8th number of /proc/stat's cpu line), or undefined. */
function stealTicks() {
  try {
    return Number(readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/)[8]);
  } catch {
    return undefined;
  }
}

async function main() {
  const rounds = Number(opt('rounds', '3000'));
  const warmup = Number(opt('warmup', '300'));
  if (!Number.isInteger(rounds) || rounds < 100 || !Number.isInteger(warmup) || warmup < 0) {
    process.stderr.write('bench: --rounds must be a whole number of at least 100 and --warmup a whole number\n');
    process.exit(2);
  }
  const parties = [
    ...[0, 20, 40, 60, 80, 120].map((us) => ({ label: us === 0 ? 'bare node:http' : `bare, busy ${us} µs first`, args: ['spin', String(us)] })),
    { label: 'express, one route', args: ['express'] },
  ];
  // Every process started is stopped at the end, whichever step fails.
  const children = [];
  const dir = mkdtempSync(join(tmpdir(), 'am-budget-'));
  const times = parties.map(() => []);
  let stealBefore;
  let loadBefore;
  try {
    const running = await Promise.all(parties.map(async (p) => {
      const { child, match } = await start([fileURLToPath(import.meta.url), '--party', ...p.args], /^(\d+)\n/, p.label);
      children.push(child);
      return { url: `http://127.0.0.1:${match[1]}` };
    }));
    const sandbox = await startSandbox(join(dir, 'kubeconfig'));
    children.push(sandbox.child);
    const ours = await startServe(join(dir, 'kubeconfig'), { readCache: false, namespaces: ['kagent'], defaultNamespace: 'kagent' });
    children.push(ours.child);
    parties.push({ label: 'agent-manager GET /api/v1/info, no cache' });
    times.push([]);
    running.push({ url: ours.url });
    stealBefore = stealTicks();
    loadBefore = loadavg()[0].toFixed(1);
    for (let round = 0; round < warmup + rounds; round++) {
      for (let i = 0; i < running.length; i++) {
        const { status, ms } = await request(running[i].url, '/api/v1/info');
        if (status !== 200) throw new Error(`${parties[i].label} answered ${status}`);
        if (round >= warmup) times[i].push(ms);
      }
    }
  } finally {
    for (const child of children) child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
  const floor = median(times[0]);
  const steal = stealBefore === undefined ? 'unknown' : String(stealTicks() - stealBefore);
  const rows = parties.map((p, i) => `| ${p.label} | ${median(times[i]).toFixed(3)} | ${(median(times[i]) / floor).toFixed(2)}× |`);
  process.stdout.write([
    `${new Date().toISOString()}, Node ${process.version}, ${rounds} alternating rounds after ${warmup} of warm-up, ` +
      `load average ${loadBefore} before and ${loadavg()[0].toFixed(1)} after, ${steal} ticks of CPU stolen by the host meanwhile.`,
    '',
    '| party | median (ms) | ratio |',
    '|---|---:|---:|',
    ...rows,
    '',
  ].join('\n'));
}

if (opt('party') !== undefined) party(opt('party'), args[args.indexOf('--party') + 2]);
else await main();
