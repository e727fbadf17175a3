/**
 * kube-access.ts's derivation run in a Node process of its own, started without loading the
 * compiler into the test worker (a suite starts it at import, before its other work). Its answer
 * is kept by a hash of everything it reads (kube-access-kept.ts): a later run over the same code
 * reads it instead.
 */
import { execFile } from 'node:child_process';
import type { Derived } from './kube-access.js';
import { keptDerivation } from './kube-access-kept.js';

/**
 * deriveKubeAccess in a Node process of its own. The compiler's program of `src` and its
 * dependencies takes about a gigabyte, which a test worker keeps (as resident memory) for
 * every file it runs afterwards, and every child process a later test starts costs time
 * in proportion to that memory. Node runs kube-access.ts as it is (type stripping).
 */
export async function deriveKubeAccessApart(
  root: string, resourceTypes: Record<string, { group: string; resource: string }>,
): Promise<Derived> {
  const kept = keptDerivation(root, resourceTypes);
  const known = kept.read();
  if (known) return known;
  const derived = await deriveInProcess(root, resourceTypes);
  kept.keep(derived);
  return derived;
}

function deriveInProcess(
  root: string, resourceTypes: Record<string, { group: string; resource: string }>,
): Promise<Derived> {
  const script = `import { deriveKubeAccess } from ${JSON.stringify(new URL('./kube-access.ts', import.meta.url).href)};
let input = '';
for await (const chunk of process.stdin) input += chunk;
const { root, resourceTypes } = JSON.parse(input);
process.stdout.write(JSON.stringify(deriveKubeAccess(root, resourceTypes)));`;
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, ['--input-type=module', '--no-warnings', '-e', script], { maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`deriving the access failed: ${stderr || err.message}`));
      else resolve(JSON.parse(stdout) as Derived);
    });
    child.stdin!.end(JSON.stringify({ root, resourceTypes }));
  });
}
