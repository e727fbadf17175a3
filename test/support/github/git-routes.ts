/**
 * The git data endpoints of the GitHub API double, each a thin translation of GitHub's
 * documented request and response shapes onto git plumbing over a real bare repository:
 * refs (`git update-ref` with compare-and-swap), blobs (`hash-object`, `cat-file`), trees
 * (a scratch index: `read-tree`, `update-index`, `write-tree`), commits (`commit-tree`),
 * contents, and pull requests (kept in memory, as GitHub keeps them beside git).
 */
import { isSha, type BareRepo } from './bare-repo.js';

export interface Reply {
  status: number;
  body?: unknown;
  raw?: string;
}

export interface PullRequest {
  number: number;
  title: string;
  body: string;
  head: string;
  base: string;
  headSha: string;
  user: string;
  state: 'open' | 'closed';
  draft: boolean;
}

export interface RepoState {
  fullName: string;
  repo: BareRepo;
  pulls: PullRequest[];
  htmlUrl: string;
}

const notFound = (): Reply => ({ status: 404, body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' } });
const unprocessable = (message: string): Reply => ({ status: 422, body: { message, documentation_url: 'https://docs.github.com/rest' } });
const FILE_MODES = new Set(['100644', '100755', '040000', '160000', '120000']);
/** A ref or path as GitHub would accept it; nothing that git could read as an option. */
const SAFE_NAME = /^(?!-)(?!.*\.\.)[A-Za-z0-9._/@+-]+$/;

export async function gitRoute(
  state: RepoState, method: string, rest: string, query: URLSearchParams, body: any, user: string, raw: boolean,
): Promise<Reply> {
  const repo = state.repo;
  if (method === 'GET' && rest === '') {
    return { status: 200, body: { full_name: state.fullName, name: state.fullName.split('/')[1], private: true, default_branch: 'main', html_url: state.htmlUrl } };
  }
  let m: RegExpExecArray | null;
  // Clients send the ref either as is (`heads/main`) or percent-encoded (`heads%2Fmain`).
  const ref = /^\/git\/refs?\/(.+)$/.exec(rest)?.[1];
  const branchOf = () => { const r = decodeURIComponent(ref ?? ''); return r.startsWith('heads/') ? r.slice('heads/'.length) : undefined; };
  if (method === 'GET' && rest.startsWith('/git/ref/') && branchOf()) return refReply(state, branchOf()!);
  if (method === 'POST' && rest === '/git/refs') return createRef(repo, body);
  if (method === 'PATCH' && rest.startsWith('/git/refs/') && branchOf()) return updateRef(repo, branchOf()!, body);
  if (method === 'DELETE' && rest.startsWith('/git/refs/') && branchOf()) {
    const name = branchOf()!;
    const sha = await repo.branch(name);
    if (!sha) return unprocessable('Reference does not exist');
    await repo.git(['update-ref', '-d', `refs/heads/${name}`, sha]);
    return { status: 204 };
  }
  if (method === 'POST' && rest === '/git/blobs') {
    if (typeof body?.content !== 'string') return unprocessable('Invalid request.\n\n"content" wasn\'t supplied.');
    const bytes = body.encoding === 'base64' ? Buffer.from(body.content, 'base64') : Buffer.from(body.content, 'utf8');
    return { status: 201, body: { sha: await repo.writeBlob(bytes), url: '' } };
  }
  if (method === 'GET' && (m = /^\/git\/blobs\/([0-9a-f]{40})$/.exec(rest))) {
    const blob = await repo.object(m[1]!);
    if (blob?.type !== 'blob') return notFound();
    const { content } = blob;
    return { status: 200, body: { sha: m[1], size: content.length, encoding: 'base64', content: content.toString('base64') } };
  }
  if (method === 'GET' && (m = /^\/git\/trees\/(.+)$/.exec(rest))) return readTree(repo, decodeURIComponent(m[1]!), query.get('recursive') !== null);
  if (method === 'POST' && rest === '/git/trees') return createTree(repo, body);
  if (method === 'GET' && (m = /^\/git\/commits\/([0-9a-f]{40})$/.exec(rest))) return readCommit(repo, m[1]!);
  if (method === 'POST' && rest === '/git/commits') return createCommit(repo, body);
  if (method === 'GET' && (m = /^\/contents\/(.*)$/.exec(rest))) {
    return contents(repo, m[1]!.split('/').map(decodeURIComponent).join('/'), query.get('ref') ?? 'main', raw);
  }
  if (method === 'POST' && rest === '/pulls') return createPull(state, body, user);
  if (method === 'GET' && rest === '/pulls') {
    const open = state.pulls.filter((p) => (query.get('state') ?? 'open') === 'all' || p.state === (query.get('state') ?? 'open'));
    return { status: 200, body: open.map((p) => pullJson(state, p)) };
  }
  if (method === 'GET' && (m = /^\/pulls\/(\d+)$/.exec(rest))) {
    const pull = state.pulls.find((p) => p.number === Number(m![1]));
    return pull ? { status: 200, body: pullJson(state, pull) } : notFound();
  }
  return notFound();
}

async function refReply(state: RepoState, name: string): Promise<Reply> {
  const sha = SAFE_NAME.test(name) ? await state.repo.branch(name) : undefined;
  if (!sha) return notFound();
  return { status: 200, body: { ref: `refs/heads/${name}`, object: { type: 'commit', sha } } };
}

async function createRef(repo: BareRepo, body: any): Promise<Reply> {
  const ref = body?.ref;
  if (typeof ref !== 'string' || !ref.startsWith('refs/heads/') || !SAFE_NAME.test(ref)) return unprocessable('Reference name is invalid');
  if (!isSha(body.sha) || (await repo.typeOf(body.sha)) !== 'commit') return unprocessable('Object does not exist');
  const name = ref.slice('refs/heads/'.length);
  if (await repo.branch(name)) return unprocessable('Reference already exists');
  await repo.updateBranch(name, body.sha, undefined);
  return { status: 201, body: { ref, object: { type: 'commit', sha: body.sha } } };
}

async function updateRef(repo: BareRepo, name: string, body: any): Promise<Reply> {
  const current = SAFE_NAME.test(name) ? await repo.branch(name) : undefined;
  if (!current) return unprocessable('Reference does not exist');
  if (!isSha(body?.sha) || (await repo.typeOf(body.sha)) !== 'commit') return unprocessable('Object does not exist');
  if (body.force !== true && !(await repo.isAncestor(current, body.sha))) return unprocessable('Update is not a fast forward');
  try {
    await repo.updateBranch(name, body.sha, current);
  } catch {
    return unprocessable('Reference cannot be updated');
  }
  return { status: 200, body: { ref: `refs/heads/${name}`, object: { type: 'commit', sha: body.sha } } };
}

async function treeOf(repo: BareRepo, ish: string): Promise<string | undefined> {
  if (!SAFE_NAME.test(ish)) return undefined;
  return (await repo.resolve(`${ish}^{tree}`))?.sha;
}

async function readTree(repo: BareRepo, ish: string, recursive: boolean): Promise<Reply> {
  const tree = await treeOf(repo, ish);
  if (!tree) return notFound();
  const out = await repo.git(['ls-tree', '-l', '-z', ...(recursive ? ['-r', '-t'] : []), tree]);
  const entries = out.split('\0').filter(Boolean).map((line) => {
    const [meta, path] = line.split('\t') as [string, string];
    const [mode, type, sha, size] = meta.split(/\s+/) as [string, string, string, string];
    return { path, mode, type, sha, ...(type === 'blob' ? { size: Number(size) } : {}) };
  });
  return { status: 200, body: { sha: tree, tree: entries, truncated: false } };
}

async function createTree(repo: BareRepo, body: any): Promise<Reply> {
  if (!Array.isArray(body?.tree)) return unprocessable('Invalid tree info');
  let base: string | undefined;
  if (body.base_tree !== undefined) {
    if (!isSha(body.base_tree) || (await repo.typeOf(body.base_tree)) !== 'tree') return unprocessable('base_tree is not a valid tree oid');
    base = body.base_tree;
  }
  const changes: Array<{ path: string; mode: string; sha: string | null; content?: string }> = [];
  for (const entry of body.tree) {
    if (typeof entry?.path !== 'string' || !SAFE_NAME.test(entry.path) || !FILE_MODES.has(entry.mode)) return unprocessable('tree.path or tree.mode is invalid');
    if (entry.sha === null) changes.push({ path: entry.path, mode: entry.mode, sha: null });
    else if (typeof entry.content === 'string') changes.push({ path: entry.path, mode: entry.mode, sha: null, content: entry.content });
    else if (isSha(entry.sha) && (await repo.typeOf(entry.sha))) {
      changes.push({ path: entry.path, mode: entry.mode, sha: entry.sha });
    } else return unprocessable(`tree.sha ${String(entry.sha)} is not a valid blob`);
  }
  // Inline contents become blobs in one batch.
  const inline = changes.filter((c) => c.content !== undefined);
  (await repo.writeBlobs(inline.map((c) => Buffer.from(c.content!)))).forEach((id, i) => { inline[i]!.sha = id; });
  const sha = await repo.writeTree(base, changes);
  return { status: 201, body: { sha, truncated: false, tree: [] } };
}

async function readCommit(repo: BareRepo, sha: string): Promise<Reply> {
  const commit = await repo.object(sha);
  if (commit?.type !== 'commit') return notFound();
  const text = commit.content.toString('utf8');
  const [head, ...message] = text.split('\n\n');
  const lines = head!.split('\n');
  const tree = lines.find((l) => l.startsWith('tree '))!.slice(5);
  const parents = lines.filter((l) => l.startsWith('parent ')).map((l) => ({ sha: l.slice(7) }));
  const author = /^author (.*) <(.*)> (\d+) ([+-]\d{4})$/.exec(lines.find((l) => l.startsWith('author ')) ?? '');
  return {
    status: 200,
    body: {
      sha, tree: { sha: tree }, parents, message: message.join('\n\n').replace(/\n$/, ''),
      author: author
        ? { name: author[1], email: author[2], date: new Date(Number(author[3]) * 1000).toISOString() }
        : undefined,
    },
  };
}

async function createCommit(repo: BareRepo, body: any): Promise<Reply> {
  if (typeof body?.message !== 'string') return unprocessable('Invalid request.\n\n"message" wasn\'t supplied.');
  if (!isSha(body.tree) || (await repo.typeOf(body.tree)) !== 'tree') return unprocessable('Tree SHA does not exist');
  const parents: string[] = Array.isArray(body.parents) ? body.parents : [];
  for (const parent of parents) if ((await repo.typeOf(parent)) !== 'commit') return unprocessable('Parent SHA does not exist or is not a commit object');
  const author = body.author && typeof body.author.name === 'string' && typeof body.author.email === 'string'
    ? { name: body.author.name, email: body.author.email } : undefined;
  const sha = await repo.commitTree(body.tree, parents, body.message, author);
  return readCommit(repo, sha).then((r) => ({ ...r, status: 201 }));
}

async function contents(repo: BareRepo, path: string, ref: string, raw: boolean): Promise<Reply> {
  if (!SAFE_NAME.test(ref) || (path !== '' && !SAFE_NAME.test(path))) return notFound();
  const object = await repo.resolve(`${ref}:${path}`);
  const sha = object?.sha ?? '';
  const type = object?.type;
  if (type === 'blob') {
    const content = object!.content;
    if (raw) return { status: 200, raw: content.toString('utf8') };
    return { status: 200, body: { type: 'file', path, sha, size: content.length, encoding: 'base64', content: content.toString('base64') } };
  }
  if (type === 'tree') {
    const listing = (await readTree(repo, sha, false)).body as {
      tree: Array<{ path: string; type: string; sha: string }>;
    };
    return { status: 200, body: listing.tree.map((e) => ({ name: e.path, path: path ? `${path}/${e.path}` : e.path, sha: e.sha, type: e.type === 'tree' ? 'dir' : 'file' })) };
  }
  return notFound();
}

async function createPull(state: RepoState, body: any, user: string): Promise<Reply> {
  const { title, head, base } = body ?? {};
  if (typeof title !== 'string' || typeof head !== 'string' || typeof base !== 'string') return unprocessable('Validation Failed');
  const headSha = SAFE_NAME.test(head) ? await state.repo.branch(head) : undefined;
  const baseSha = SAFE_NAME.test(base) ? await state.repo.branch(base) : undefined;
  if (!headSha || !baseSha) return unprocessable('Validation Failed: head or base does not exist');
  if (state.pulls.some((p) => p.state === 'open' && p.head === head && p.base === base)) {
    return unprocessable(`A pull request already exists for ${state.fullName.split('/')[0]}:${head}.`);
  }
  if (headSha === baseSha || (await state.repo.isAncestor(headSha, baseSha))) return unprocessable(`No commits between ${base} and ${head}`);
  const pull: PullRequest = {
    number: state.pulls.length + 1, title, body: typeof body.body === 'string' ? body.body : '', head, base, headSha, user,
    state: 'open', draft: body.draft === true,
  };
  state.pulls.push(pull);
  return { status: 201, body: pullJson(state, pull) };
}

function pullJson(state: RepoState, p: PullRequest) {
  return {
    number: p.number, state: p.state, title: p.title, body: p.body, draft: p.draft,
    html_url: `${state.htmlUrl}/pull/${p.number}`, user: { login: p.user },
    head: { ref: p.head, sha: p.headSha }, base: { ref: p.base },
  };
}
