/**
 * Which MCP POSTs are answered with an SSE stream: those carrying a request that asks
 * for progress (`params._meta.progressToken`). Progress notifications belong to their
 * request's response stream, and a plain JSON answer has no room for them (the SDK
 * drops them); every other POST keeps its single JSON answer.
 *
 * Deciding needs the body before the SDK's transport reads it. `bufferBody` reads it
 * once (never more than the limit plus one byte, so an oversized body still reaches the
 * transport as too large) and leaves it on `req.rawBody`, where the transport's
 * Node-to-Fetch bridge (@hono/node-server) takes it from instead of the spent stream:
 * the transport still does all its own checks (Accept, Content-Type, size, JSON-RPC
 * shape) in its own words. A body with a declared Content-Length over the limit is not
 * read at all: the transport refuses it from the header.
 */
import type { Request } from 'express';

/** Reads the request body (up to `limit` + 1 bytes; the rest is discarded) and leaves it as `req.rawBody`. */
export async function bufferBody(req: Request, limit: number): Promise<Buffer | undefined> {
  if (Number(req.headers['content-length']) > limit) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    if (size > limit) continue;
    const room = limit + 1 - size;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    chunks.push(part);
    size += part.length;
  }
  const body = Buffer.concat(chunks);
  (req as Request & { rawBody?: Buffer }).rawBody = body;
  return body;
}

/** True when a JSON-RPC message (or one of a batch) is a request asking for progress. */
export function asksForProgress(body: Buffer | undefined): boolean {
  if (!body || body.length === 0) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return false;
  }
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
