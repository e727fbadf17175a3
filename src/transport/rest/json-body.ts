/**
 * Reading a REST body, where untrusted bytes become a JSON object, with the texts clients already
 * compare: at most 1 MiB (413, the connection then closed: ../http/body-limit.ts), a body required,
 * valid JSON, no key given twice (duplicate-keys.ts), an object; `null` under a key is absent except for
 * the safety switches (../null-fields.ts); deep nesting and nested `__proto__` refused (../input-limits.ts).
 * Only JSON (RFC 9110 §8.3): another Content-Type or coding is a 415 saying what to send (reading forms as
 * JSON would let any page write without a preflight). Unknown fields and types are the schema's.
 */
import typeis from 'type-is';
import { AppError, ErrorCode, invalid } from '../../core/errors.js';
import { isJsonObject } from '../../core/json.js';
import { inputShapeProblem } from '../input/input-limits.js';
import { duplicateKey } from '../input/duplicate-keys.js';
import { jsonKind } from '../input/type-errors.js';
import { withoutNulls } from '../input/null-fields.js';
import { closeAfterAnswer, readBoundedBody, TOO_LARGE } from '../http/body-limit.js';
import type { HttpRequest, HttpResponse, Step } from '../http/exchange.js';
import { CODINGS, contentTypeProblem, decompressor, JSON_MEDIA_TYPE } from '../http/json-content.js';

export { contentTypeProblem, JSON_MEDIA_TYPE };

/** The largest body read (1 MiB). */
export const MAX_BODY_BYTES = 1 << 20;

export const BODY_REQUIRED = 'a JSON body is required';
export const BODY_TOO_LARGE = 'the JSON body is larger than 1 MiB';

/** An `invalid_request` answered with 413 instead of 400: the only status override of the REST layer. */
export class BodyTooLargeError extends AppError {
  constructor(cause?: unknown) {
    super(ErrorCode.Invalid, BODY_TOO_LARGE, { cause });
  }

  override get status(): number {
    return 413;
  }
}

/**
 * A body in a format the REST API does not read: 415, with the `invalid_request` code (the
 * request is wrong; the status says how), and the response headers that name what is accepted.
 */
export class UnsupportedMediaTypeError extends AppError {
  constructor(detail: string, readonly headers: Readonly<Record<string, string>>, cause?: unknown) {
    super(ErrorCode.Invalid, detail, { cause });
  }

  override get status(): number {
    return 415;
  }
}

/**
 * Reads the raw body into `req.body` as a Buffer (at most 1 MiB), translating the
 * reader's failures into AppErrors; parsing happens in `parseJsonBody`.
 */
export const readRawBody: Step = async (req, res) => {
  const problem = contentTypeProblem(req.headers['content-type']);
  if (problem !== undefined) {
    throw refuse(req, res, new UnsupportedMediaTypeError(problem,
      req.method === 'PATCH' ? { 'Accept-Patch': JSON_MEDIA_TYPE } : {}));
  }
  req.body = await readBytes(req, res);
};

/**
 * The guard of a route that takes no body (DELETE): RFC 9110 §9.3.5 gives DELETE content
 * no meaning, so it would be ignored, and a `{"dryRun": true}` or `{"force": false}` in it
 * would then be a real (or forced) delete. A body that is not empty is refused instead,
 * naming the query parameters; an empty one (with any Content-Type) passes.
 */
export const refuseBody: Step = async (req, res) => {
  const text = (await readBytes(req, res))?.toString() ?? '';
  if (text.trim() === '') return;
  throw invalid(`${req.method} takes no body; send its options as query parameters (e.g. ?dryRun=true or ` +
    `?force=true); nothing was done`);
};

/**
 * The body's bytes, undone from their content coding, as body-parser reads them: nothing when the
 * request has no body. A body over 1 MiB (declared, read or decoded) is refused at once and the rest
 * never read: the 413 closes the connection (../http/body-limit.ts).
 */
async function readBytes(req: HttpRequest, res: HttpResponse): Promise<Buffer | undefined> {
  if (!typeis.hasBody(req)) return undefined;
  const coding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  const inflate = coding === 'identity' ? undefined : decompressor(coding);
  if (coding !== 'identity' && !inflate) {
    const detail = `the content coding ${JSON.stringify(coding.slice(0, 64))} is not supported; send the body ` +
      `uncompressed or as ${CODINGS.join(', ')}`;
    throw refuse(req, res, new UnsupportedMediaTypeError(detail, { 'Accept-Encoding': CODINGS.join(', ') }));
  }
  let body: Buffer | typeof TOO_LARGE;
  try {
    body = await readBoundedBody(req, res, MAX_BODY_BYTES, inflate);
  } catch (err) {
    throw invalid(`read body: ${err instanceof Error ? err.message : String(err)}`, err);
  }
  if (body === TOO_LARGE) throw new BodyTooLargeError();
  // What is left of the request after a coded body (nothing, or trailing bytes) is read off.
  if (inflate) req.resume();
  return body;
}

/**
 * Sets the error's response headers (the error handler writes its body) and hands it back; the body
 * is never read, so the connection closes with the answer.
 */
function refuse(req: HttpRequest, res: HttpResponse, error: UnsupportedMediaTypeError): UnsupportedMediaTypeError {
  closeAfterAnswer(req, res);
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  return error;
}

/**
 * The body as a JSON object with `null`-valued keys removed, but for the top-level keys in
 * `keepNull`, which stay null for the input schema to refuse (../null-fields.ts). `raw` is what
 * `readRawBody` left on `req.body`.
 */
export function parseJsonBody(raw: unknown, keepNull: ReadonlySet<string> = new Set()): Record<string, unknown> {
  let value: unknown = raw;
  if (raw === undefined || Buffer.isBuffer(raw) || typeof raw === 'string') {
    const text = raw === undefined ? '' : textOf(raw);
    if (text.trim() === '') throw invalid(BODY_REQUIRED);
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw invalid(`invalid JSON: ${err instanceof Error ? err.message : String(err)}`, err);
    }
    const repeated = duplicateKey(text);
    if (repeated !== undefined) {
      throw invalid(`invalid JSON: field ${JSON.stringify(repeated)} is given twice; send each field once`);
    }
  }
  if (!isJsonObject(value)) throw invalid(`invalid JSON: the body must be a JSON object, not ${jsonKind(value)}`);
  const problem = inputShapeProblem(value);
  if (problem) throw invalid(`invalid JSON: field ${JSON.stringify(problem.field)}${problem.reason}`);
  return withoutNulls(value, keepNull);
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The body's text; bytes that are not UTF-8 are refused (RFC 8259 §8.1), never replaced with U+FFFD. */
function textOf(raw: Buffer | string): string {
  if (typeof raw === 'string') return raw;
  try {
    return utf8.decode(raw);
  } catch (err) {
    throw invalid('invalid JSON: the body is not UTF-8 (RFC 8259 §8.1); send the JSON text encoded as UTF-8', err);
  }
}
