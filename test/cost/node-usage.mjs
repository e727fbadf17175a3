// Preloaded into every Node process of a measured run (test/cost/measure.sh, NODE_OPTIONS
// --import): appends the process's own CPU (not its children's) to $COST_NODE_LOG when it exits,
// or when it is sent SIGTERM (vitest stops its workers so). Measurement only; nothing else.
import { appendFileSync } from 'node:fs';

const log = process.env.COST_NODE_LOG;
function record(how) {
  if (!log) return;
  const usage = process.resourceUsage();
  const line = { pid: process.pid, how, argv: process.argv.slice(1).join(' ').slice(0, 160),
    user: usage.userCPUTime / 1e6, sys: usage.systemCPUTime / 1e6 };
  appendFileSync(log, `${JSON.stringify(line)}\n`);
}
process.on('exit', () => record('exit'));
process.on('SIGTERM', () => {
  record('sigterm');
  // Alone, this listener would keep the process alive: end it as SIGTERM would have.
  if (process.listenerCount('SIGTERM') === 1) {
    process.removeAllListeners('SIGTERM');
    process.kill(process.pid, 'SIGTERM');
  }
});
