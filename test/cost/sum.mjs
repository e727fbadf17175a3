// Sums a measured run (test/cost/measure.sh OUT): the run's CPU from /usr/bin/time, each Node
// process's own CPU by role, each tool's CPU and runs, and the test files that cost most in their
// workers with the tool CPU they started. Usage: node test/cost/sum.mjs OUT
import { existsSync, readFileSync } from 'node:fs';

const out = process.argv[2];
const lines = (name) => (existsSync(`${out}/${name}`) ? readFileSync(`${out}/${name}`, 'utf8').split('\n').filter(Boolean) : []);
const rows = new Map();
const add = (row, cpu) => {
  const sum = rows.get(row) ?? { cpu: 0, n: 0 };
  rows.set(row, { cpu: sum.cpu + cpu, n: sum.n + 1 });
};

// A process may log twice (SIGTERM, then exit): its larger figure counts.
const byPid = new Map();
for (const line of lines('node.log')) {
  const entry = JSON.parse(line);
  const cpu = entry.user + entry.sys;
  if (cpu >= (byPid.get(entry.pid)?.cpu ?? -1)) byPid.set(entry.pid, { ...entry, cpu });
}
const role = (argv) => [
  [/vitest\/dist\/workers/, 'node: vitest workers (test bodies, module loading)'],
  [/\.bin\/vitest/, 'node: vitest main (orchestration, transforms, global set-up)'],
  [/small-spawn-helper/, 'node: small-spawn helper'],
  [/mcp-inspector/, 'node: mcp-inspector'],
  [/vendor-client-node/, 'node: scripts/vendor-client-node.mjs'],
  [/main\.js|serve/, 'node: built agent-manager (serve, migrate)'],
  [/^$/, 'node: -e scripts (rbac\'s compiler passes)'],
].find(([pattern]) => pattern.test(argv))?.[1] ?? `node: ${argv.slice(0, 60)}`;
for (const entry of byPid.values()) add(role(entry.argv), entry.cpu);

const toolByFile = new Map();
for (const line of lines('tools.log')) {
  const m = /^(\S+) (?:(\S+) )?[\d.]+ ([\d.]+) ([\d.]+)$/.exec(line);
  if (!m) continue; // "Command exited with non-zero status N"
  const cpu = Number(m[3]) + Number(m[4]);
  add(`tool: ${m[1]}`, cpu);
  toolByFile.set(m[2] ?? '-', (toolByFile.get(m[2] ?? '-') ?? 0) + cpu);
}

const time = /([\d.]+) wall ([\d.]+) user ([\d.]+) sys/.exec(readFileSync(`${out}/time`, 'utf8'));
const total = Number(time[2]) + Number(time[3]);
let counted = 0;
for (const [row, { cpu, n }] of [...rows].sort((a, b) => b[1].cpu - a[1].cpu)) {
  counted += cpu;
  console.log(`${row.padEnd(64)} ${cpu.toFixed(1).padStart(7)} s  ${n} process(es)`);
}
console.log(`${'rest (esbuild, shells, /usr/bin/time; negative: orphans the shims counted)'.padEnd(64)} ${(total - counted).toFixed(1).padStart(7)} s`);
console.log(`${'the run (/usr/bin/time: user + sys)'.padEnd(64)} ${total.toFixed(1).padStart(7)} s  wall ${time[1]} s`);

const files = new Map();
for (const line of lines('files.log')) {
  const [, file, cpu] = line.split(' ');
  files.set(file, Math.max(files.get(file) ?? 0, Number(cpu)));
}
if (files.size > 0) {
  const sum = [...files.values()].reduce((a, b) => a + b, 0);
  console.log(`\n${files.size} files, ${sum.toFixed(1)} s in their workers; the costliest (worker s, tool s):`);
  for (const [file, cpu] of [...files].sort((a, b) => b[1] - a[1]).slice(0, 15)) {
    console.log(`${file.padEnd(64)} ${cpu.toFixed(1).padStart(6)} ${(toolByFile.get(file) ?? 0).toFixed(1).padStart(6)}`);
  }
}
