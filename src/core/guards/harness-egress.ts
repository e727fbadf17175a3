/**
 * `--harness-egress` (chart `harness.egress`): the platform's origin list per Harness, written as
 * `<harness>=<origin>[,<origin>…]` entries separated by `;`, e.g.
 * `claude=https://github.com,https://*.githubusercontent.com;codex=https://api.openai.com`. Pure: the
 * configuration reads the text through here and refuses it at startup in these words, so a typo in an
 * origin stops the process instead of silently narrowing (or widening) what agents reach.
 */
import { egressViolation } from './egress.js';

/** The origins each Harness's agents reach, by Harness name; a Harness not named has none. */
export type HarnessEgress = Readonly<Record<string, readonly string[]>>;

// A Harness is a Kubernetes object: its name is a DNS-1123 subdomain.
const OBJECT_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** The parsed list, or the first problem in the text (a sentence saying what to write instead). */
export function parseHarnessEgress(text: string): { egress: HarnessEgress } | { problem: string } {
  const egress: Record<string, readonly string[]> = {};
  for (const raw of text.split(';')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const at = entry.indexOf('=');
    if (at < 0) {
      return { problem: `entry ${JSON.stringify(entry)} is not <harness>=<origin>[,<origin>…] ` +
        '(entries are separated by ";", origins by ",")' };
    }
    const harness = entry.slice(0, at).trim();
    if (harness.length > 253 || !OBJECT_NAME.test(harness)) {
      return { problem: `entry ${JSON.stringify(entry)}: ${JSON.stringify(harness)} is not a Harness name (a ` +
        'lower-case DNS-1123 name such as claude)' };
    }
    if (Object.hasOwn(egress, harness)) {
      return { problem: `Harness ${harness} is listed twice; give each Harness one entry with all its origins` };
    }
    const origins = entry.slice(at + 1).split(',').map((o) => o.trim()).filter((o) => o !== '');
    const violation = egressViolation(origins);
    if (violation) return { problem: `Harness ${harness}: ${violation}` };
    egress[harness] = origins;
  }
  return { egress };
}

/** The origins of one Harness (none when it is not listed). */
export function harnessOrigins(egress: HarnessEgress, harness: string): readonly string[] {
  return Object.hasOwn(egress, harness) ? egress[harness]! : [];
}
