// Whether a module is the script node was asked to run (`node scripts/x.mjs`), not one imported
// by another script. Both paths go through realpath: in a checkout reached through a symlink,
// node's argv[1] is the link while the module's own URL is its target.
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** True when `moduleUrl` (the caller's `import.meta.url`) is the file in `process.argv[1]`. */
export function isMain(moduleUrl) {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}
