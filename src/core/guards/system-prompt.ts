/**
 * The system prompt of an agent: the chart's 20,000-character cap, and on a claude Harness the platform's
 * network note. The note tells the agent which origins its sandbox reaches, so a refused request reads as
 * policy and not as an outage the agent would retry or work around. Everything from the note's heading on
 * is the platform's: it is rewritten on every write, so a caller cannot keep an older (or forged) note.
 */

/** The agent chart's cap on `agent.systemMessage`, in characters (code points, as the chart schema counts). */
export const MAX_SYSTEM_MESSAGE_LENGTH = 20_000;

/** The heading that opens the platform's network note; the prompt is cut here before the note is added. */
export const NETWORK_NOTE_HEADING = '## Network access (set by the platform)';

/** Why a system prompt is too long for the chart, or undefined when it fits. */
export function systemMessageViolation(message: string): string | undefined {
  const length = [...message].length;
  if (length <= MAX_SYSTEM_MESSAGE_LENGTH) return undefined;
  return `systemMessage is ${length} characters; the agent chart accepts at most ${MAX_SYSTEM_MESSAGE_LENGTH}. ` +
    'Move long reference material into a skill';
}

/** The platform's network note for a sandbox that reaches `origins` besides its model and its tools. */
export function networkNote(origins: readonly string[]): string {
  const reach = origins.length > 0 ? `only these origins: ${origins.join(', ')}` : 'no other origin';
  return `${NETWORK_NOTE_HEADING}\n\nBesides your model and your tools, your sandbox reaches ${reach}. A request ` +
    'to any other host is refused by the egress policy and shows up as a failed command or tool call (connection ' +
    'refused, reset or 403). It is not transient: do not retry it or work around it; say which host the task needs.';
}

/** `prompt` with everything from the note's heading on replaced by the note for `origins`. */
export function withNetworkNote(prompt: string, origins: readonly string[]): string {
  const at = prompt.indexOf(NETWORK_NOTE_HEADING);
  const kept = (at >= 0 ? prompt.slice(0, at) : prompt).replace(/[ \t\n]+$/, '');
  const note = networkNote(origins);
  return kept === '' ? note : `${kept}\n\n${note}`;
}

/** Why the prompt with the note is too long, in the original's words, or undefined when it fits. */
export function notedPromptViolation(notedPrompt: string): string | undefined {
  const violation = systemMessageViolation(notedPrompt);
  return violation && `systemMessage with the platform's egress note: ${violation}`;
}
