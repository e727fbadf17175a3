/**
 * How every REST response body is written: `application/json`, two-space indent and a
 * trailing newline, as Go's `json.Encoder` with `SetIndent("", "  ")` wrote it. Like
 * that encoder, `<`, `>`, `&`, U+2028 and U+2029 are escaped, so a body is safe to embed
 * in HTML and a JavaScript string; any JSON parser reads the same values back.
 */
import type { Response } from 'express';

const ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/** The body text of `value`. These characters occur only inside JSON strings, so replacing them is exact. */
export function encodeJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2).replace(/[<>&\u2028\u2029]/g, (c) => ESCAPES[c] ?? c)}\n`;
}

/** Sends `value` as the response with `status`, typed exactly `application/json` as Go's was. */
export function sendJson(res: Response, status: number, value: unknown): void {
  // A Buffer, so express neither appends a charset nor guesses a type.
  res.status(status).setHeader('Content-Type', 'application/json');
  res.send(Buffer.from(encodeJson(value), 'utf8'));
}
