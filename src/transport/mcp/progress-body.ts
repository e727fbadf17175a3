/**
 * The MCP POST body, read by REST's body rules and parsed once before the SDK's transport sees it, for
 * the handler's two decisions: a key given twice (refused) and a `params._meta.progressToken` (answered
 * with SSE, since a JSON answer has no room for progress). A parsed body goes to the transport as
 * `parsedBody`; one that does not parse (none, not JSON) as `req.rawBody`, for the transport to refuse
 * in its own words. A body over the limit is answered 413 here, as soon as its declared length or the
 * bytes read or decoded pass it, and the connection closed without reading the rest (../http/body-limit.ts).
 */
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { closeAfterAnswer, readBoundedBody, TOO_LARGE } from '../http/body-limit.js';
import { sendCompactJson } from '../http/exchange.js';
import { CODINGS, contentTypeProblem, decompressor } from '../http/json-content.js';
import { jsonRpcError } from './json-rpc-error.js';
import { isJsonObject } from '../../core/json.js';

/** What readPostBody returns when it has answered the request itself (a 415 or a parse error). */
export const ANSWERED = Symbol('answered');

/**
 * The body by REST's rules (http/json-content.ts): JSON in UTF-8, plain or in a coding Node undoes;
 * another type, charset or coding is answered 415, bytes that do not decode or are not UTF-8 -32700.
 */
export async function readPostBody(
  req: IncomingMessage, res: ServerResponse, limit: number,
): Promise<Buffer | typeof ANSWERED> {
  const typeProblem = contentTypeProblem(req.headers['content-type']);
  const coding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  const decoder = coding === 'identity' ? undefined : decompressor(coding);
  if (typeProblem !== undefined || (coding !== 'identity' && !decoder)) {
    if (!typeProblem) res.setHeader('Accept-Encoding', CODINGS.join(', '));
    const problem = typeProblem ?? `the content coding ${JSON.stringify(coding.slice(0, 64))} is not supported; ` +
      `send the body uncompressed or as ${CODINGS.join(', ')}`;
    closeAfterAnswer(req, res);
    sendCompactJson(res, 415, jsonRpcError(-32000, `Unsupported Media Type: ${problem}`));
    return ANSWERED;
  }
  let body: Buffer | typeof TOO_LARGE;
  try {
    body = await readBoundedBody(req, res, limit, decoder);
  } catch {
    sendCompactJson(res, 400, jsonRpcError(-32700, `Parse error: the body does not decode as ${coding}`));
    return ANSWERED;
  }
  if (body === TOO_LARGE) {
    // The SDK transport's words for it; the connection closes with the answer (../http/body-limit.ts).
    sendCompactJson(res, 413, jsonRpcError(-32000, `Payload Too Large: Request body must not exceed ${limit} bytes`));
    return ANSWERED;
  }
  if (!isUtf8(body)) {
    sendCompactJson(res, 400, jsonRpcError(-32700, 'Parse error: the body is not UTF-8 (RFC 8259 §8.1)'));
    return ANSWERED;
  }
  // A body that does not parse goes to the transport as `rawBody`, for it to refuse in its own words.
  (req as IncomingMessage & { rawBody?: Buffer }).rawBody = body;
  return body;
}

/** A body's text and parsed JSON; undefined when there is none, it is over `limit`, or it is not JSON. */
export function parseMessage(body: Buffer | undefined, limit: number): { text: string; value: unknown } | undefined {
  if (!body || body.length === 0 || body.length > limit) return undefined;
  const text = body.toString('utf8');
  try {
    const value: unknown = JSON.parse(text);
    return { text, value };
  } catch {
    return undefined;
  }
}

/** True when a parsed JSON-RPC message (or one of a batch) is a request asking for progress. */
export function asksForProgress(parsed: unknown): boolean {
  const messages: unknown[] = Array.isArray(parsed) ? parsed : [parsed];
  // Any JSON may arrive here (`null`, a number, a batch of strings): only an object with
  // an `id` is a request, and only an object `_meta` can carry a token. The transport
  // answers every other shape in its own words.
  return messages.some((m) => {
    if (!isJsonObject(m) || m.id === undefined) return false;
    if (!isJsonObject(m.params) || !isJsonObject(m.params._meta)) return false;
    const token = m.params._meta.progressToken;
    return token !== undefined && token !== null;
  });
}
