/**
 * The helper process of small-spawn.ts: runs each requested command with execFile and
 * answers with its exit code and output (base64, so binary output survives JSON). Node
 * runs this file as it is (type stripping), so it imports nothing but Node's own modules.
 */
import { execFile } from 'node:child_process';

interface Request {
  id: number;
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  input?: string;
  timeoutMs?: number;
}

process.on('message', (message) => {
  const { id, file, args, env, input, timeoutMs } = message as Request;
  const child = execFile(file, args, { env, encoding: 'buffer', maxBuffer: 256 * 1024 * 1024, timeout: timeoutMs ?? 0 }, (err, stdout, stderr) => {
    const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
    const error = err && typeof err.code === 'string' ? err.code : undefined;
    process.send!({ id, code, stdout: stdout.toString('base64'), stderr: stderr.toString('base64'), ...(error ? { error } : {}) });
  });
  child.stdin?.on('error', () => undefined);
  if (input !== undefined) child.stdin!.end(Buffer.from(input, 'base64'));
  else child.stdin!.end();
});
process.on('disconnect', () => process.exit(0));
