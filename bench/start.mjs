// `npm start` on a built tree, from the spawn to the first 200 of /healthz, as a person running it
// sees it: npm, the build's freshness check, loading the service and starting the sandbox fleet.
// Usage: npm run bench:start [-- --runs N]. Each run listens on free loopback ports; the first run
// after a build also fills Node's compile cache, so it is reported apart from the others.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const runsFlag = process.argv.indexOf('--runs');
const runs = runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 6;
if (!Number.isInteger(runs) || runs < 1) {
  process.stderr.write(`bench: --runs must be a whole number of runs, at least 1, got ${process.argv[runsFlag + 1]}\n`);
  process.exit(2);
}

async function freePort() {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  server.close();
  await once(server, 'close');
  return port;
}

async function healthy(url, deadline) {
  while (performance.now() < deadline) {
    try {
      if ((await fetch(url)).status === 200) return true;
    } catch { /* not listening yet */ }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return false;
}

async function oneStart() {
  const [port, metricsPort] = [await freePort(), await freePort()];
  const started = performance.now();
  const child = spawn('npm', ['start', '--silent', '--', `--listen=127.0.0.1:${port}`,
    `--metrics-listen=127.0.0.1:${metricsPort}`], { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => { output += chunk; });
  const ok = await healthy(`http://127.0.0.1:${port}/healthz`, started + 30_000);
  const seconds = (performance.now() - started) / 1000;
  process.kill(-child.pid, 'SIGTERM');
  await once(child, 'exit');
  if (!ok) throw new Error(`npm start was not healthy within 30 s:\n${output}`);
  const startupMs = /"startupMs":(\d+)/.exec(output)?.[1];
  return { seconds, startupMs: Number(startupMs) };
}

const load = loadavg().map((l) => l.toFixed(2)).join(' ');
const first = await oneStart();
const rest = [];
for (let i = 1; i < runs; i++) rest.push(await oneStart());
const sorted = rest.map((r) => r.seconds).sort((a, b) => a - b);
const fmt = (s) => s.toFixed(2);
console.log(`npm start -> /healthz 200, load average before: ${load}`);
console.log(`  first run: ${fmt(first.seconds)} s (startupMs ${first.startupMs})`);
if (rest.length > 0) console.log(`  next ${rest.length}: ${fmt(sorted[0])}–${fmt(sorted.at(-1))} s, median ${fmt(sorted[Math.floor(sorted.length / 2)])} s`
  + ` (startupMs ${rest.map((r) => r.startupMs).join(', ')})`);
