/**
 * `execFile` through a small helper process (tests only). A fork costs in proportion to the parent's
 * resident memory: a worker holding ~500 MB pays ~25 ms per `git` (a fresh Node ~1 ms). Suites that
 * start hundreds of short processes ask this helper, one Node process per worker started on first use,
 * which runs each command with the same arguments, environment and stdin and returns code and output;
 * it exits with the worker.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface SmallSpawnResult {
  /** The exit code; null when a signal ended the process (or it could not start). */
  code: number | null;
  stdout: Buffer;
  stderr: Buffer;
  /** Why it could not start (ENOENT …), when it could not. */
  error?: string;
}

interface Reply { id: number; code: number | null; stdout: string; stderr: string; error?: string }

let helper: ChildProcess | undefined;
let nextId = 0;
const pending = new Map<number, (reply: Reply) => void>();

function start(): ChildProcess {
  if (helper?.connected) return helper;
  const child = fork(fileURLToPath(new URL('./small-spawn-helper.ts', import.meta.url)), [], {
    execArgv: ['--no-warnings'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'], serialization: 'json',
  });
  child.on('message', (reply: Reply) => {
    pending.get(reply.id)?.(reply);
    pending.delete(reply.id);
    if (pending.size === 0) child.channel?.unref();
  });
  child.on('exit', () => {
    if (helper === child) helper = undefined;
    for (const [id, done] of pending) done({ id, code: null, stdout: '', stderr: '', error: 'the spawn helper exited' });
    pending.clear();
  });
  child.unref();
  helper = child;
  return child;
}

/** Runs `file` with `args` like execFile (no shell), optionally writing `input` to its stdin; `timeoutMs` kills it as
 * execFile's `timeout` does. */
export function smallSpawn(
  file: string, args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; input?: string | Buffer; timeoutMs?: number } = {},
): Promise<SmallSpawnResult> {
  const child = start();
  const id = ++nextId;
  return new Promise((resolve) => {
    pending.set(id, (reply) => resolve({
      code: reply.code, stdout: Buffer.from(reply.stdout, 'base64'), stderr: Buffer.from(reply.stderr, 'base64'),
      ...(reply.error ? { error: reply.error } : {}),
    }));
    child.channel?.ref();
    const input = options.input === undefined ? undefined : Buffer.from(options.input).toString('base64');
    child.send({ id, file, args, env: options.env ?? process.env, input, timeoutMs: options.timeoutMs });
  });
}
