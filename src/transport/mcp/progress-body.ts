/**
 * The MCP POST body, read and parsed once before the SDK's transport sees it, for the handler's two
 * decisions: a key given twice (refused) and a `params._meta.progressToken` (answered with SSE, since a
 * JSON answer has no room for progress). A parsed body goes to the transport as `parsedBody`; one that
 * does not parse (none, over the limit, not JSON) as `req.rawBody`, for the transport to refuse in its
 * own words; a declared Content-Length over the limit is never read. The rest stays the transport's.
 */
import type { IncomingMessage } from 'node:http';
import type { Transform } from 'node:stream';

/**
 * Reads the request body (up to `limit` + 1 bytes; the rest is discarded) and leaves it as `req.rawBody`;
 * through `decoder` when the body has a content coding, stopping once the decoded bytes pass the limit.
 */
export async function bufferBody(
  req: IncomingMessage, limit: number, decoder?: Transform,
): Promise<Buffer | undefined> {
  if (Number(req.headers['content-length']) > limit) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  if (decoder) req.pipe(decoder);
  try {
    for await (const chunk of (decoder ?? req) as AsyncIterable<Buffer>) {
      if (size > limit) {
        if (decoder) break;
        continue;
      }
      const room = limit + 1 - size;
      const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
      chunks.push(part);
      size += part.length;
    }
  } finally {
    if (decoder) {
      // What is left of the request (after a bomb stopped early) is read off, so the answer can be sent.
      req.unpipe(decoder);
      decoder.destroy();
      req.resume();
    }
  }
  const body = Buffer.concat(chunks);
  (req as IncomingMessage & { rawBody?: Buffer }).rawBody = body;
  return body;
}

/** A body's text and parsed JSON; undefined when there is none, it is over `limit`, or it is not JSON. */
export function parseMessage(body: Buffer | undefined, limit: number): { text: string; value: unknown } | undefined {
  if (!body || body.length === 0 || body.length > limit) return undefined;
  const text = body.toString('utf8');
  try {
    return { text, value: JSON.parse(text) as unknown };
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
    if (!isObject(m) || m.id === undefined || !isObject(m.params) || !isObject(m.params._meta)) return false;
    const token = m.params._meta.progressToken;
    return token !== undefined && token !== null;
  });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
