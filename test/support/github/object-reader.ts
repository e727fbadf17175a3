/**
 * Reads objects of a repository through one long-running `git cat-file --batch` (tests
 * only), instead of a git process per read: the GitHub API double resolves a branch and
 * reads a blob, a tree or a commit on nearly every request. A name is anything
 * `git rev-parse` takes (an id, `refs/heads/main^{commit}`, `main:path/file`). The reader
 * never answers from a stale view: git reads refs from disk again for every line, objects
 * are immutable, and an id it does not know is looked up on disk again.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

export interface GitObject {
  sha: string;
  type: string;
  content: Buffer;
}

interface Pending {
  resolve(object: GitObject | undefined): void;
  reject(err: Error): void;
}

export class ObjectReader {
  private child: ChildProcessWithoutNullStreams | undefined;
  private buffer = Buffer.alloc(0);
  private readonly queue: Pending[] = [];

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  /** The object a name resolves to, or undefined when there is none. */
  read(name: string): Promise<GitObject | undefined> {
    if (name === '' || /[\n\r]/.test(name)) return Promise.resolve(undefined);
    const child = this.start();
    return new Promise((resolve, reject) => {
      this.queue.push({ resolve, reject });
      child.stdin.write(`${name}\n`);
    });
  }

  close(): void {
    this.child?.stdin.end();
    this.child = undefined;
  }

  private start(): ChildProcessWithoutNullStreams {
    if (this.child) return this.child;
    const child = spawn('git', ['cat-file', '--batch'], { env: this.env, stdio: 'pipe' });
    child.stdout.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.drain();
    });
    const fail = (err: Error) => {
      if (this.child === child) this.child = undefined;
      for (const p of this.queue.splice(0)) p.reject(err);
    };
    child.on('error', fail);
    child.on('exit', (code) => fail(new Error(`git cat-file --batch exited (${code})`)));
    this.child = child;
    return child;
  }

  /** Answers the oldest reads whose whole reply has arrived: `<id> <type> <size>\n<content>\n` or `<name>
   * missing\n`. */
  private drain(): void {
    for (;;) {
      const eol = this.buffer.indexOf(0x0a);
      if (eol < 0 || this.queue.length === 0) return;
      const header = this.buffer.subarray(0, eol).toString('utf8').split(' ');
      if (header.length !== 3) {
        this.buffer = this.buffer.subarray(eol + 1);
        this.queue.shift()!.resolve(undefined);
        continue;
      }
      const size = Number(header[2]);
      if (this.buffer.length < eol + 1 + size + 1) return;
      const content = Buffer.from(this.buffer.subarray(eol + 1, eol + 1 + size));
      this.buffer = this.buffer.subarray(eol + 1 + size + 1);
      this.queue.shift()!.resolve({ sha: header[0]!, type: header[1]!, content });
    }
  }
}
