/**
 * The platform's shared reference material (`../shared` beside the repository that holds
 * this package: the real Flux and kagent CRDs), found relative to the repository root and
 * never by an absolute path. Tests that read it say so in their titles and skip where it
 * is absent.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Absolute path of `../shared/<relative>` beside the repository root (packages/kube-sandbox/../..). */
export function sharedPath(relative: string): string {
  return fileURLToPath(new URL(`../../../../../shared/${relative}`, import.meta.url));
}

/** A test title that says the test needs `../shared/<relative>`, and that it skipped if absent. */
export function needsShared(title: string, relative: string): string {
  return `${title} (needs ../shared/${relative}${existsSync(sharedPath(relative)) ? '' : '; SKIPPED: it is absent'})`;
}
