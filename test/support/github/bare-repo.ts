/**
 * A real bare git repository driven by git plumbing (tests only): the object store behind the GitHub
 * double and what tests inspect (`git log`, `git show`, a checkout for `kubectl kustomize`). Argument
 * vectors against `GIT_DIR` with a fixed identity and no user config, so results do not depend on the
 * machine. Object reads share one `git cat-file --batch`, multi-file operations are a fixed number of
 * processes started through small-spawn.ts: a test makes hundreds of calls, each costlier than its work.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { smallSpawn } from '../small-spawn.js';
import { ObjectReader, type GitObject } from './object-reader.js';

export interface GitIdentity {
  name: string;
  email: string;
  /** `<epoch seconds> +0000`; now when absent. */
  date?: string;
}

const SHA = /^[0-9a-f]{40}$/;

/** True for a full hex object id. */
export const isSha = (value: unknown): value is string => typeof value === 'string' && SHA.test(value);

export class BareRepo {
  private readonly objects: ObjectReader;

  private constructor(readonly dir: string) {
    this.objects = new ObjectReader(this.env(true));
  }

  /** A new empty bare repository in a fresh temporary directory (default branch `main`). */
  static async create(): Promise<BareRepo> {
    const dir = await mkdtemp(join(tmpdir(), 'am-bare-'));
    const repo = new BareRepo(dir);
    await repo.git(['init', '--bare', '--quiet', '--initial-branch=main', dir], { bare: false });
    return repo;
  }

  /** Runs git with GIT_DIR set (through the small spawn helper); resolves stdout, rejects with stderr's text. */
  async git(
    args: string[], options: { input?: string | Buffer; env?: Record<string, string>; bare?: boolean } = {},
  ): Promise<string> {
    const env = this.env(options.bare !== false, options.env);
    const run = await smallSpawn('git', args, { env, input: options.input });
    if (run.code !== 0) throw new Error(`git ${args[0]}: ${run.stderr.toString('utf8').trim() || run.error || `exit ${run.code}`}`);
    return run.stdout.toString('utf8');
  }

  private env(gitDir: boolean, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    return {
      PATH: process.env.PATH, HOME: this.dir, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: 'test', GIT_AUTHOR_EMAIL: 'test@example.com', GIT_COMMITTER_NAME: 'test', GIT_COMMITTER_EMAIL: 'test@example.com',
      ...(gitDir ? { GIT_DIR: this.dir } : {}),
      ...extra,
    };
  }

  /** The commit a branch points at, or undefined when there is no such branch. */
  async branch(name: string): Promise<string | undefined> {
    return (await this.objects.read(`refs/heads/${name}^{commit}`))?.sha;
  }

  async branches(): Promise<string[]> {
    const out = await this.git(['for-each-ref', '--format=%(refname:strip=2)', 'refs/heads']);
    return out.split('\n').filter(Boolean);
  }

  /** Writes `content` as a blob and returns its id. */
  async writeBlob(content: Buffer): Promise<string> {
    return (await this.git(['hash-object', '-w', '--stdin'], { input: content })).trim();
  }

  /** Writes every content as a blob with one git process; the ids in the same order. */
  async writeBlobs(contents: Buffer[]): Promise<string[]> {
    if (contents.length <= 1) return Promise.all(contents.map((c) => this.writeBlob(c)));
    const scratch = await mkdtemp(join(tmpdir(), 'am-blobs-'));
    try {
      const paths = await Promise.all(contents.map(async (content, i) => {
        const path = join(scratch, String(i));
        await writeFile(path, content);
        return path;
      }));
      const ids = (await this.git(['hash-object', '-w', '--stdin-paths'], { input: `${paths.join('\n')}\n` })).split('\n').filter(Boolean);
      if (ids.length !== contents.length) throw new Error(`git hash-object: ${ids.length} ids for ${contents.length} files`);
      return ids;
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  /** An object by full id, or undefined when absent. */
  async object(sha: string): Promise<GitObject | undefined> {
    return isSha(sha) ? this.objects.read(sha) : undefined;
  }

  /**
   * The object a revision expression names (`main^{tree}`, `main:clusters/prod`), or
   * undefined when it names none. The caller checks the expression is a safe name.
   */
  async resolve(expression: string): Promise<GitObject | undefined> {
    return expression.startsWith('-') ? undefined : this.objects.read(expression);
  }

  async readBlob(sha: string): Promise<Buffer> {
    const object = await this.object(sha);
    if (object?.type !== 'blob') throw new Error(`no blob ${sha}`);
    return object.content;
  }

  /** The type of an object (`blob`, `tree`, `commit`, `tag`), or undefined when absent. */
  async typeOf(sha: string): Promise<string | undefined> {
    return (await this.object(sha))?.type;
  }

  /**
   * A tree made from `base` (a tree id, or none) with `changes` applied: a path to a blob
   * id (with its mode) is added or replaced, a path to null is removed.
   */
  async writeTree(
    base: string | undefined, changes: Array<{ path: string; mode: string; sha: string | null }>,
  ): Promise<string> {
    const scratch = await mkdtemp(join(tmpdir(), 'am-index-'));
    const env = { GIT_INDEX_FILE: join(scratch, 'index') };
    try {
      if (base) await this.git(['read-tree', base], { env });
      else await this.git(['read-tree', '--empty'], { env });
      // One --index-info batch: `<mode> <sha>\t<path>` adds or replaces, mode 0 removes
      // (the form that works without a work tree, as a bare repository has none).
      const lines = changes.map((c) => (c.sha === null ? `0 ${'0'.repeat(40)}\t${c.path}` : `${c.mode} ${c.sha}\t${c.path}`));
      if (lines.length > 0) await this.git(['update-index', '--index-info'], { env, input: `${lines.join('\n')}\n` });
      return (await this.git(['write-tree'], { env })).trim();
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  async commitTree(tree: string, parents: string[], message: string, author?: GitIdentity): Promise<string> {
    const env: Record<string, string> = {};
    if (author) {
      env.GIT_AUTHOR_NAME = author.name;
      env.GIT_AUTHOR_EMAIL = author.email;
      if (author.date) env.GIT_AUTHOR_DATE = author.date;
    }
    const args = ['commit-tree', tree, ...parents.flatMap((p) => ['-p', p])];
    return (await this.git(args, { input: message, env })).trim();
  }

  /**
   * Moves a branch with compare-and-swap: `expected` undefined means it must not exist yet.
   * Rejects when the branch is not where the caller expected it.
   */
  async updateBranch(name: string, sha: string, expected: string | undefined): Promise<void> {
    await this.git(['update-ref', `refs/heads/${name}`, sha, expected ?? '0'.repeat(40)]);
  }

  async isAncestor(ancestor: string, descendant: string): Promise<boolean> {
    return this.git(['merge-base', '--is-ancestor', ancestor, descendant]).then(() => true, () => false);
  }

  /** Commits `files` (path → content, null removes) on top of `branch` and moves it; returns the commit. */
  async commitFiles(branch: string, files: Record<string, string | null>, message = 'seed'): Promise<string> {
    const parent = await this.branch(branch);
    const baseTree = parent ? (await this.git(['rev-parse', `${parent}^{tree}`])).trim() : undefined;
    const entries = Object.entries(files);
    const written = entries.filter(([, content]) => content !== null);
    const ids = new Map(
      await this.writeBlobs(written.map(([, content]) => Buffer.from(content!))).then((shas) =>
        shas.map((sha, i) => [written[i]![0], sha]),
      ),
    );
    const changes = entries.map(([path]) => ({ path, mode: '100644', sha: ids.get(path) ?? null }));
    const tree = await this.writeTree(baseTree, changes);
    const commit = await this.commitTree(tree, parent ? [parent] : [], message);
    await this.updateBranch(branch, commit, parent);
    return commit;
  }

  /** The file at `ref:path` as text, or undefined when absent. */
  async show(ref: string, path: string): Promise<string | undefined> {
    const object = await this.resolve(`${ref}:${path}`);
    return object?.type === 'blob' ? object.content.toString('utf8') : undefined;
  }

  /** Every file path in the tree of `ref`. */
  async files(ref: string): Promise<string[]> {
    return (await this.git(['ls-tree', '-r', '--name-only', ref])).split('\n').filter(Boolean);
  }

  /** Writes the tree of `ref` into a fresh directory (for `kubectl kustomize`); returns it. */
  async checkout(ref: string): Promise<string> {
    const out = await mkdtemp(join(tmpdir(), 'am-checkout-'));
    const scratch = await mkdtemp(join(tmpdir(), 'am-index-'));
    try {
      // A scratch index and the output directory as the work tree: the repository stays bare.
      const env = { GIT_INDEX_FILE: join(scratch, 'index'), GIT_WORK_TREE: out };
      await this.git(['read-tree', `${ref}^{tree}`], { env });
      await this.git(['checkout-index', '--all'], { env });
      return out;
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  async remove(): Promise<void> {
    this.objects.close();
    await rm(this.dir, { recursive: true, force: true });
  }
}
