// The machine line and the two Markdown tables of bench/results.md.
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';

/** The median of a list of numbers (the mean of the two middle ones for an even count). */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Node version, CPU model (from /proc/cpuinfo where there is one), cores, the 1-minute load average and the date. */
export function machine() {
  let cpu = cpus()[0]?.model ?? 'unknown CPU';
  try {
    cpu = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? cpu;
  } catch {
    // not Linux: os.cpus() said it
  }
  return {
    node: process.version, cpu, cores: cpus().length, load: loadavg()[0].toFixed(1),
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  };
}

const int = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en') : '—');
// autocannon's latencies are whole milliseconds: 0 means under one.
const ms = (n) => (!Number.isFinite(n) ? '—' : n === 0 ? '<1' : n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));
const cpuMs = (n) => (!Number.isFinite(n) ? '—' : n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));
const ratio = (n) => (Number.isFinite(n) ? `${n.toFixed(1)}×` : '—');
const calls = (n) => (Number.isFinite(n) ? String(n) : '—');

function table(head, rows) {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

/** The table without injected latency: our throughput beside the floor and the sandbox. */
export function throughputTable(rows) {
  return table(
    ['operation', 'req/s', 'p50 ms', 'p99 ms', 'API calls/op', 'floor req/s', 'floor p50 ms', 'express floor req/s',
      'express floor p50 ms', 'sandbox request', 'sandbox req/s', 'sandbox p50 ms', 'floor ÷ ours', '≈ own CPU ms/op'],
    rows.map((r) => [
      r.label, int(r.app.rps), ms(r.app.p50), ms(r.app.p99), calls(r.calls),
      int(r.floor?.rps), ms(r.floor?.p50), int(r.expressFloor?.rps), ms(r.expressFloor?.p50),
      r.sandbox ? r.sandboxLabel : '(none)', int(r.sandbox?.rps), ms(r.sandbox?.p50),
      ratio(r.floor ? r.floor.rps / r.app.rps : Number.NaN), cpuMs(r.ownMs),
    ]),
  );
}

/** The table with injected API latency: where the time goes when round trips dominate. */
export function latencyTable(rows, latencyMs) {
  return table(
    ['operation', 'req/s', 'p50 ms', 'p99 ms', 'API calls/op', 'sequential calls', `p50 − sequential × ${latencyMs} ms`, 'sandbox request', 'sandbox p50 ms'],
    rows.map((r) => [
      r.label, int(r.app.rps), ms(r.app.p50), ms(r.app.p99), calls(r.calls), String(r.depth),
      ms(r.app.p50 - r.depth * latencyMs),
      r.sandbox ? r.sandboxLabel : '(none)', ms(r.sandbox?.p50),
    ]),
  );
}
