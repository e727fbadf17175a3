/**
 * `node dist/main.js serve …` as a child process, the way it runs in a pod: its JSON log
 * lines (stderr) are parsed as they come, its listen address is read from the
 * `listening` line, and it can be sent signals. Its environment is the parent's without
 * any agent-manager or Kubernetes variable, so only the given flags configure it. A
 * child still running when the test ends is killed (`kill()`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../../dist/main.js', import.meta.url));
const SCRUBBED = /^(AGENT_MANAGER_|AGENT_CHART_|KUBE|KAGENT_|FLUX_|HELMRELEASE_|OCIREPOSITORY_|DEX_|GOOGLE_|OAUTH_|SSO_|GITHUB_TOKEN)/;

export interface ServeChild {
  readonly proc: ChildProcess;
  /** `http://127.0.0.1:<port>` of the main listener. */
  readonly url: string;
  /** Every log line so far, parsed (lines that are not JSON are kept as `{ msg: line }`). */
  readonly logs: Array<Record<string, unknown>>;
  /** Resolves with the first log line (already seen or still to come) whose msg matches. */
  waitForLog(msg: string | RegExp, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Resolves when the process has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(): void;
}

export { deadPort } from '../../support/start-serve.js';

/**
 * Start `agent-manager serve` with `args` (plus a loopback listener, no metrics listener
 * and, unless `args` set one, no shutdown delay) and wait until it listens.
 */
export async function startServeChild(args: readonly string[]): Promise<ServeChild> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !SCRUBBED.test(key)));
  const delay = args.some((a) => a.startsWith('--shutdown-delay')) ? [] : ['--shutdown-delay=0s'];
  const proc = spawn(process.execPath, [MAIN, 'serve', '--listen=127.0.0.1:0', '--metrics-listen=', ...delay, ...args], {
    env, stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Array<Record<string, unknown>> = [];
  const waiters: Array<{
    match: (line: Record<string, unknown>) => boolean;
    resolve: (line: Record<string, unknown>) => void;
  }> = [];
  let buffered = '';
  const onData = (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    let newline: number;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const text = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (text.trim() === '') continue;
      let line: Record<string, unknown>;
      try {
        line = JSON.parse(text) as Record<string, unknown>;
      } catch {
        line = { msg: text };
      }
      logs.push(line);
      for (const waiter of waiters.filter((w) => w.match(line))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  };
  proc.stderr?.on('data', onData);
  proc.stdout?.on('data', onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    proc.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const killOnExit = () => proc.kill('SIGKILL');
  process.once('exit', killOnExit);
  void exited.then(() => process.off('exit', killOnExit));

  const waitForLog = (msg: string | RegExp, timeoutMs = 20_000): Promise<Record<string, unknown>> => {
    const match = (line: Record<string, unknown>) => (typeof msg === 'string' ? line.msg === msg : msg.test(String(line.msg)));
    const seen = logs.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no log line ${String(msg)} within ${timeoutMs / 1000}s; log so far:\n${logs.map((l) => JSON.stringify(l)).join('\n')}`)), timeoutMs);
      waiters.push({ match, resolve: (line) => { clearTimeout(timer); resolve(line); } });
      void exited.then(({ code, signal }) => {
        clearTimeout(timer);
        reject(new Error(`serve exited (${code ?? signal}) before logging ${String(msg)}:\n${logs.map((l) => JSON.stringify(l)).join('\n')}`));
      });
    });
  };

  const listening = await waitForLog('listening');
  return {
    proc, url: String(listening.url), logs, waitForLog, exited,
    kill: () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    },
  };
}
