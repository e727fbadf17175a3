/**
 * What every handler of the main listener works on: node's own request and response, with the few
 * fields our steps add, and the small helpers that write answers. Why no web framework: express swaps
 * the prototypes of node's request and response on every request, which left node's own writing code
 * slow on them, and walks a stack of path-matching layers; `GET /api/v1/info` cost 1.7× a bare server
 * (bench/results.md). Routing is path-to-regexp's, negotiation the `accepts` and `type-is` packages (what
 * express uses); what is ours is the order of the steps and the bounded body reader (body-limit.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery, type ParsedUrlQuery } from 'node:querystring';
import type { Caller, RequestContext } from '../../identity/caller.js';

/** The request as our steps see it. */
export interface HttpRequest extends IncomingMessage {
  /** The URL's path, without the query (set by `prepareRequest`). */
  path: string;
  /** The query, parsed once (set by `prepareRequest`); values given twice are arrays. */
  query: ParsedUrlQuery;
  /** The route's path parameters, percent-decoded (set by the router that matched). */
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

/** An MCP tool call as its access log line names it: the tool, and how it ended once it has (`ok`, `tool_error`, …). */
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

const NO_QUERY: ParsedUrlQuery = Object.freeze(Object.create(null) as ParsedUrlQuery);

/** Sets `path`, `query` and `params` from the URL; idempotent. */
export function prepareRequest(incoming: IncomingMessage): HttpRequest {
  const req = incoming as HttpRequest;
  if (req.path !== undefined) return req;
  let url = req.url ?? '/';
  // RFC 9112 §3.2.2: a server accepts the absolute form (`GET http://host/path`) too; only its path counts.
  if (!url.startsWith('/') && URL.canParse(url)) {
    const absolute = new URL(url);
    url = `${absolute.pathname}${absolute.search}`;
  }
  const at = url.indexOf('?');
  req.path = at < 0 ? url : url.slice(0, at);
  // As express 5's default ("simple") parser: node's querystring, repeated keys as arrays.
  req.query = at < 0 || at === url.length - 1 ? NO_QUERY : parseQuery(url.slice(at + 1));
  req.params = {};
  return req;
}

/**
 * Runs `steps` in order until one answers; true when one did. Synchronous steps run without
 * a promise, so a request whose steps are all synchronous (no guard) costs no microtask here.
 */
export function runSteps(steps: readonly Step[], req: HttpRequest, res: HttpResponse, from = 0):
  boolean | Promise<boolean> {
  for (let i = from; i < steps.length; i++) {
    const outcome = steps[i]!(req, res);
    if (outcome === true) return true;
    if (outcome instanceof Promise) {
      return outcome.then((answered) => answered === true || runSteps(steps, req, res, i + 1));
    }
  }
  return false;
}

/** `handler` once every step passed; a step that answered ends the request there. */
export function behind(steps: readonly Step[], handler: Handler): Handler {
  if (steps.length === 0) return handler;
  return (req, res) => {
    const passed = runSteps(steps, req, res);
    if (passed === true) return;
    if (passed === false) return handler(req, res);
    return passed.then((answered) => (answered ? undefined : handler(req, res)));
  };
}

const ENDINGS = Symbol('endings');

type Ending = (res: HttpResponse) => void;
type WithEndings = HttpResponse & { [ENDINGS]?: Ending[] };

/**
 * Runs `ending` once the response is over: after it finished (`res.writableFinished` is true) or
 * when its connection closed first (false). Node emits `close` on every response, after `finish`
 * when the answer was written; every step's ending shares one `close` listener, in the order the
 * steps asked, so a request pays for one listener however many steps watch its end.
 */
export function whenClosed(res: HttpResponse, ending: Ending): void {
  const response = res as WithEndings;
  const endings = response[ENDINGS];
  if (endings) {
    endings.push(ending);
    return;
  }
  const list = [ending];
  response[ENDINGS] = list;
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
