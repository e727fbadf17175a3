/**
 * Response bodies read with a byte cap, and fetch failures as one readable phrase. A
 * registry is untrusted: a body larger than its cap is cut off (error text) or refused
 * (everything else) instead of being buffered whole.
 */
import { asObject, optionalString } from '../core/json.js';

/**
 * The body's bytes. Past `maxBytes` it throws `<what>: answer larger than <n> bytes`, or,
 * with `truncate`, returns the first `maxBytes` (error texts quote at most that much).
 */
export async function readCapped(res: Response, maxBytes: number, what: string, truncate = false): Promise<Buffer> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (!truncate && Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel();
    throw new Error(`${what}: answer larger than ${maxBytes} bytes`);
  }
  if (!res.body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let total = 0;
  const reader = res.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        if (!truncate) throw new Error(`${what}: answer larger than ${maxBytes} bytes`);
        chunks.push(Buffer.from(value.subarray(0, value.byteLength - (total - maxBytes))));
        return Buffer.concat(chunks);
      }
      chunks.push(Buffer.from(value));
    }
  } catch (err) {
    if (err instanceof Error && err.message.startsWith(what)) throw err;
    throw new Error(`${what}: reading the answer failed: ${describeFetchError(err)}`, { cause: err });
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks);
}

/** `connect ECONNREFUSED 127.0.0.1:5000`, `no answer within 30s`, `aborted`, … */
export function describeFetchError(err: unknown, timeoutMs?: number): string {
  const e = asObject(err);
  if (e.name === 'TimeoutError') return timeoutMs ? `no answer within ${timeoutMs / 1000}s` : 'timed out';
  if (e.name === 'AbortError') return 'aborted';
  const cause = optionalString(asObject(e.cause).message);
  if (cause) return cause;
  return typeof e.message === 'string' ? e.message : String(err);
}

/**
 * Text a registry sent, made fit to quote in an error that reaches logs and get_info:
 * control and non-printable characters become `?`, whitespace runs one space, and at
 * most `max` characters are kept.
 */
export function quotable(text: string, max = 200): string {
  const clean = text.replace(/[^\p{L}\p{M}\p{N}\p{P}\p{S} ]/gu, (c) => (/\s/.test(c) ? ' ' : '?')).replace(/ {2,}/g,
    ' ').trim();
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}
