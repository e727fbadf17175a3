/**
 * The platform's shared reference material (`../shared` beside the repository: real CRDs,
 * chart schemas, the Go service's flag table), found relative to the repository root and
 * never by an absolute path. Tests that read it say so in their titles ("needs
 * ../shared/…") and skip where it is absent; `.ci/run` refuses to run without it, so CI
 * never passes by skipping them.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is test/support/shared-reference.ts). */
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Absolute path of `../shared/<relative>` beside the repository root. */
export function sharedPath(relative: string): string {
  return fileURLToPath(new URL(`../shared/${relative}`, `file://${REPO_ROOT}`));
}

/** Whether `../shared/<relative>` exists. */
export function hasShared(relative: string): boolean {
  return existsSync(sharedPath(relative));
}

/** A test title that says the test needs `../shared/<relative>`, and that it skipped if absent. */
export function needsShared(title: string, relative: string): string {
  return `${title} (needs ../shared/${relative}${hasShared(relative) ? '' : '; SKIPPED: it is absent'})`;
}
