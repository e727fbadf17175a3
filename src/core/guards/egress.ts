/**
 * Egress of an agent (`agent.egress`, the Agent's `spec.egress`): the origins its sandbox may reach besides
 * its model and its tools. Two rules live here, both pure. The list itself follows what the Agent CRD
 * accepts (at most 64 HTTP(S) origins of at most 270 characters, none twice), checked on every agent that
 * names one; and on a claude Harness the platform sets the list (`--harness-egress`, chart
 * `harness.egress`), so an origin the caller asks for outside it is refused: a coding agent that reads
 * untrusted text must not be able to choose where it sends what it read.
 */
import { goQuote } from '../go-quote.js';

/** The Agent CRD's cap on `spec.egress` entries. */
export const MAX_EGRESS = 64;

/** The Agent CRD's cap on one origin's length. */
export const MAX_EGRESS_LENGTH = 270;

// `https?://`, then either a `*.` wildcard that needs two labels under it or plain labels, a host
// label starting with a letter, and an optional port 1-65535: the Agent CRD's pattern.
const LABEL = '[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?';
const PORT = '(:([1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?';
const HOST = `(\\*\\.(${LABEL}\\.)+|(${LABEL}\\.)*)[a-z]([-a-z0-9]{0,61}[a-z0-9])?`;
const EGRESS_ORIGIN = new RegExp(`^https?://${HOST}${PORT}$`);

/**
 * Why an egress list is not one the Agent accepts, or undefined when it is: the first problem, in list
 * order, with the original's words.
 */
export function egressViolation(list: readonly string[]): string | undefined {
  if (list.length > MAX_EGRESS) return `egress has ${list.length} entries; the Agent accepts at most ${MAX_EGRESS}`;
  for (const [i, origin] of list.entries()) {
    const length = [...origin].length;
    if (length > MAX_EGRESS_LENGTH) {
      return `egress[${i}] is ${length} characters long; an origin has at most ${MAX_EGRESS_LENGTH}`;
    }
    if (!EGRESS_ORIGIN.test(origin)) {
      return `egress[${i}] ${goQuote(origin)} is not an HTTP(S) origin: give <scheme>://<host>[:<port>], such as ` +
        'https://github.com:443 or https://*.githubusercontent.com (a wildcard replaces the leftmost label and needs ' +
        'two labels under it)';
    }
    if (list.indexOf(origin) < i) return `egress[${i}] ${goQuote(origin)} is listed twice`;
  }
  return undefined;
}

/**
 * The refusals for origins a caller asked for on a claude Harness that the platform's list for that Harness
 * does not hold, one per origin in request order.
 */
export function harnessEgressViolations(
  requested: readonly string[], harness: string, allowed: readonly string[],
): string[] {
  const listed = allowed.length > 0 ? allowed.join(', ') : 'none';
  return requested.filter((origin) => !allowed.includes(origin)).map((origin) =>
    `egress origin ${goQuote(origin)} is not one of Harness ${harness}'s origins (${listed}): a claude Harness agent ` +
    "reaches its toolchain's origins only, which the platform sets");
}
