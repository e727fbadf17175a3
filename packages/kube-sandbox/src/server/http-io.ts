/**
 * Bytes in and out of the sandbox API server: bounded body reading (3 MiB, like the real
 * server's limit), decoding JSON bodies (and YAML for server-side apply), and writing
 * JSON responses (YAML when the client's Accept asked for `application/yaml`), Status
 * errors and `Warning` headers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { StatusError, statusErrors, type KubeStatus } from '../api/status.js';

/** The real server's request body limit. */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;

/** Read the whole body as text; 413 when it exceeds the limit. */
export async function readBody(req: IncomingMessage): Promise<string> {
  return (await readBodyBytes(req)).toString('utf8');
}

/** Read the whole body as bytes (protobuf); 413 when it exceeds the limit. */
export async function readBodyBytes(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    // A request stream without an encoding set yields Buffers; a string chunk is kept in its bytes.
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buf.length;
    if (size > MAX_BODY_BYTES) {
      throw new StatusError(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${MAX_BODY_BYTES}`);
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

/** The media type of a Content-Type header, lowercased, without parameters. */
export function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Decode a JSON body (or YAML when `yaml` is set). Undefined for an empty body. */
export function decodeBody(text: string, yaml = false): unknown {
  if (text.trim() === '') return undefined;
  try {
    return yaml ? parseYaml(text) : JSON.parse(text);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw statusErrors.badRequest(yaml ? `error decoding YAML: ${why}`
      : `couldn't get version/kind; json parse error: ${why}`);
  }
}

/**
 * Serialised forms of stored objects. Stored objects are frozen and never change, so each
 * is serialised once however often it is read, listed or watched.
 */
const serialised = new WeakMap<object, string>();

/** The JSON text of a value, cached for frozen (stored) objects. */
export function jsonText(value: unknown): string {
  if (typeof value !== 'object' || value === null || !Object.isFrozen(value)) return JSON.stringify(value);
  let text = serialised.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    serialised.set(value, text);
  }
  return text;
}

const serialisedBare = new WeakMap<object, string>();

/** The JSON text of a stored object without apiVersion and kind (an item of a typed list), cached. */
function bareItemText(obj: Record<string, unknown>): string {
  let text = serialisedBare.get(obj);
  if (text === undefined) {
    const { apiVersion: _apiVersion, kind: _kind, ...rest } = obj;
    text = JSON.stringify(rest);
    if (Object.isFrozen(obj)) serialisedBare.set(obj, text);
  }
  return text;
}

/**
 * The JSON text of a list body: `{kind, apiVersion, metadata, items: [...]}` from cached
 * item texts. Items of built-in (typed) lists carry no apiVersion and kind, as the real
 * server serialises them; items of custom resource lists do.
 */
export function listText(
  kind: string, apiVersion: string, metadata: unknown, items: readonly Record<string, unknown>[], typed: boolean,
): string {
  const texts = items.map((item) => (typed ? bareItemText(item) : jsonText(item)));
  return `{"kind":${JSON.stringify(kind)},"apiVersion":${JSON.stringify(apiVersion)},"metadata":` +
    `${JSON.stringify(metadata)},"items":[${texts.join(',')}]}`;
}

/** Write a JSON response with optional `Warning: 299` headers. */
export function sendJson(res: ServerResponse, code: number, body: unknown, warnings: readonly string[] = []): void {
  if (YAML_RESPONSES.has(res)) return sendText(res, code, 'application/yaml', stringifyYaml(body), warnings);
  sendJsonText(res, code, jsonText(body), warnings);
}

const YAML_RESPONSES = new WeakSet<ServerResponse>();

/** Answer this request in YAML from here on (objects, lists and Status errors alike), as its Accept asked. */
export function answerInYaml(res: ServerResponse): void {
  YAML_RESPONSES.add(res);
}

/** Write already-serialised JSON. */
export function sendJsonText(res: ServerResponse, code: number, text: string, warnings: readonly string[] = []): void {
  if (YAML_RESPONSES.has(res)) {
    return sendText(res, code, 'application/yaml', stringifyYaml(JSON.parse(text)), warnings);
  }
  sendText(res, code, 'application/json', text, warnings);
}

function sendText(
  res: ServerResponse, code: number, contentType: string, text: string, warnings: readonly string[],
): void {
  const headers: Record<string, string | string[] | number> = {
    'Content-Type': contentType,
    'Cache-Control': 'no-cache, private',
    'Content-Length': Buffer.byteLength(text),
  };
  if (warnings.length > 0) headers.Warning = warnings.map((w) => `299 - ${JSON.stringify(w)}`);
  res.writeHead(code, headers);
  res.end(text);
}

/** Write a Status (error) response. */
export function sendStatus(res: ServerResponse, status: KubeStatus): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(res, status.code, status);
}

/** Any thrown value as a StatusError (unexpected errors become 500 InternalError). */
export function toStatusError(err: unknown): StatusError {
  if (err instanceof StatusError) return err;
  return statusErrors.internal(err instanceof Error ? err.message : String(err));
}
