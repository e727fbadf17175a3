/**
 * The session tools' input limits and their refusals, one text whichever transport asked:
 * a message is required and at most 32,000 characters, a requestId at most 128 and a
 * sessionName at most 200 (the lengths the kagent session API accepts); a session id is
 * an A2A contextId, so printable and at most 128. `timeoutSeconds` is the wait's range.
 */
import { invalid } from '../../core/errors.js';
import { WAIT_DEFAULT_SECONDS, waitSeconds } from '../../core/status/wait-rules.js';

export const MAX_MESSAGE_CHARS = 32_000;
export const MAX_REQUEST_ID_CHARS = 128;
export const MAX_SESSION_NAME_CHARS = 200;
export const MAX_SESSION_ID_CHARS = 128;

// Characters, as a person counts them (code points), not UTF-16 units.
const length = (text: string): number => [...text].length;

/** The message to send, or a 400 saying what is wrong with it. */
export function checkMessage(message: string | undefined): string {
  if (message === undefined || message.trim() === '') throw invalid('message is required: say what to ask the agent');
  const chars = length(message);
  if (chars > MAX_MESSAGE_CHARS) {
    throw invalid(`message is ${chars} characters; at most ${MAX_MESSAGE_CHARS} are accepted (send long material in ` +
      `several messages)`);
  }
  return message;
}

/** An optional text of at most `max` characters. */
export function checkOptional(field: 'requestId' | 'sessionName', value: string | undefined,
  max: number): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === '') throw invalid(`${field} is empty: leave it out or give a value`);
  const chars = length(value);
  if (chars > max) throw invalid(`${field} is ${chars} characters; at most ${max} are accepted`);
  return value;
}

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A session id as start_session answered it. */
export function checkSessionId(sessionId: string | undefined): string {
  if (sessionId === undefined || sessionId === '') {
    throw invalid('sessionId is required: use the session.id start_session or list_sessions answered');
  }
  if (length(sessionId) > MAX_SESSION_ID_CHARS || CONTROL.test(sessionId)) {
    throw invalid(`sessionId is not a session id (printable, at most ${MAX_SESSION_ID_CHARS} characters): use the ` +
      `session.id start_session or list_sessions answered`);
  }
  return sessionId;
}

/** The wait for a turn, in seconds (default 60, 1 to 600), with the waits' own refusal. */
export function turnSeconds(timeoutSeconds: number | undefined): number {
  return waitSeconds('timeoutSeconds', timeoutSeconds, 1, WAIT_DEFAULT_SECONDS);
}
