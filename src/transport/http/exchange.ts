/**
 * What every handler of the main listener works on: the request and response as express 5 hands them
 * over (node's own, with express's prototypes), typed with the few fields our steps add, and the small
 * helpers that write answers. A step is a plain function of (req, res) that answers and returns true, or
 * lets the request go on; express-step.ts makes each one middleware, so a step is tested alone, without an
 * app. Answers are written with node's own calls (a length always given), not `res.send`/`res.json`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ParsedUrlQuery } from 'node:querystring';
import type { Caller, RequestContext } from '../../identity/caller.js';

/** The request as our steps see it. */
export interface HttpRequest extends IncomingMessage {
  /** The URL's path, without the query (express's `req.path`). */
  path: string;
  /** The query (express's `req.query`, node's querystring); values given twice are arrays. */
  query: ParsedUrlQuery;
  /** The route's path parameters, percent-decoded (set by the express route that matched). */
  params: Record<string, string>;
  /** The route pattern that answered, for metrics labels (`/api/v1/agents/:namespace/:name`). */
  route?: string;
  /** The request's context; set by `requestContext()` before any route runs. */
  ctx: RequestContext;
  /** The verified caller (set by `bearerAuth`). */
  caller?: Caller;
  /** The caller's raw id_token (set by `bearerAuth`); never log it. */
  callerToken?: string;
  /** The RFC 9728 document a 401 of this request names (set by `bearerAuth`). */
  resourceMetadataUrl?: string;
  /** The body's bytes, once a body step read them. */
  body?: unknown;
  /** The MCP tool call this request carried (set by the MCP handler), for its access log line. */
  toolCall?: ToolCallRecord;
}

/** An MCP tool call as its access log line names it: the tool, and how it ended once it has (`ok`, `tool_error`). */
export interface ToolCallRecord {
  readonly tool: string;
  outcome?: string;
}

export type HttpResponse = ServerResponse<IncomingMessage>;

/**
 * One step of a request's way: it answers the request and returns true, or returns nothing
 * for the next step to run; it throws (or rejects) to hand an error to the error handler.
 */
export type Step = (req: HttpRequest, res: HttpResponse) => boolean | void | Promise<boolean | void>;

/** A handler that answers every request it is given. */
export type Handler = (req: HttpRequest, res: HttpResponse) => void | Promise<void>;

type Ending = (res: HttpResponse) => void;

/** The endings each response waits to run, kept beside it (never on it) and gone with it. */
const ENDINGS = new WeakMap<HttpResponse, Ending[]>();

/**
 * Runs `ending` once the response is over: after it finished (`res.writableFinished` is true) or
 * when its connection closed first (false). Node emits `close` on every response, after `finish`
 * when the answer was written; every step's ending shares one `close` listener, in the order the
 * steps asked, so a request pays for one listener however many steps watch its end.
 */
export function whenClosed(res: HttpResponse, ending: Ending): void {
  const endings = ENDINGS.get(res);
  if (endings) {
    endings.push(ending);
    return;
  }
  const list = [ending];
  ENDINGS.set(res, list);
  res.once('close', () => {
    for (const run of list) run(res);
  });
}

/** A request header as one string (repeated headers joined as node joins them), or undefined. */
export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Adds `field` to the response's `Vary` unless it is there (or `*` is). */
export function addVary(res: HttpResponse, field: string): void {
  const current = res.getHeader('Vary');
  if (current === undefined) {
    res.setHeader('Vary', field);
    return;
  }
  const text = Array.isArray(current) ? current.join(', ') : String(current);
  const names = text.split(',').map((name) => name.trim().toLowerCase());
  if (names.includes('*') || names.includes(field.toLowerCase())) return;
  res.setHeader('Vary', text ? `${text}, ${field}` : field);
}

/** Answers `body` with `status` and `type`, its length given (every answer of ours is written this way). */
export function sendBody(res: HttpResponse, status: number, type: string, body: Buffer): void {
  res.statusCode = status;
  res.setHeader('Content-Type', type);
  res.setHeader('Content-Length', body.length);
  res.end(body);
}

/** Answers `text` with `status` (`text/plain; charset=utf-8` unless another type is given). */
export function sendText(res: HttpResponse, status: number, text: string, type = 'text/plain; charset=utf-8'): void {
  sendBody(res, status, type, Buffer.from(text, 'utf8'));
}

/** Answers `value` as compact JSON (JSON-RPC errors, metadata documents); REST bodies use `sendJson`. */
export function sendCompactJson(res: HttpResponse, status: number, value: unknown): void {
  sendText(res, status, JSON.stringify(value), 'application/json; charset=utf-8');
}
