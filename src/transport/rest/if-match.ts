/**
 * The `If-Match` precondition of REST writes (RFC 9110 §13.1.1). An agent's entity tag is
 * its HelmRelease's resourceVersion as a strong ETag (`"44"`), which `GET` sends; a write
 * with `If-Match: "44"` is carried out only while the agent is at that version.
 *
 * - `*` asks only that the agent exists, which every write of an agent requires anyway,
 *   so it sets no version;
 * - one strong tag sets the version;
 * - a weak tag (`W/"44"`) can never match under the strong comparison If-Match uses, and
 *   a list of several tags cannot be one Kubernetes precondition: both are a 400 that says
 *   what to send instead of a 412 that would only say "read it again".
 */
import { invalid } from '../../core/errors.js';

/** The resourceVersion an `If-Match` header names, or undefined for none or `*`. */
export function parseIfMatch(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (value === '*') return undefined;
  if (value.startsWith('W/')) {
    throw invalid(`If-Match ${value} is a weak entity tag, which never matches: send the ETag GET answered, e.g. If-Match: "44"`);
  }
  const match = /^"([\x21\x23-\x7e\x80-\xff]+)"$/.exec(value);
  if (!match) {
    throw invalid(`If-Match must be one entity tag in double quotes, the ETag GET answered (e.g. If-Match: "44"), or *; got ${JSON.stringify(value)}`);
  }
  return match[1];
}

/** An ETag header value for a resourceVersion. */
export function strongEtag(resourceVersion: string): string {
  return `"${resourceVersion}"`;
}
