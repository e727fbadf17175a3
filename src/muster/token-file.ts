/**
 * The bearer `--muster-token-file` holds, for the claude-Harness toolset check on an installation without
 * OAuth (with OAuth the caller's own token is presented). It is read at every check, so a mounted token
 * that rotates is picked up without a restart; an unreadable or empty file gives no token, and the check
 * then fails closed. The token is never logged or put in a message: only the path is.
 */
import { readFile } from 'node:fs/promises';
import { asObject } from '../core/json.js';

/** The token in `path` (trimmed), or why there is none, naming the path only. */
export async function readMusterToken(path: string): Promise<{ token: string } | { problem: string }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const { code } = asObject(err);
    return { problem: `--muster-token-file ${path} cannot be read${typeof code === 'string' ? ` (${code})` : ''}` };
  }
  const token = text.trim();
  return token === '' ? { problem: `--muster-token-file ${path} is empty` } : { token };
}
