/**
 * The request context every handler runs with: the request id (the incoming `X-Request-Id` when short
 * and plain, so a proxy's id joins our log lines, else a UUID; always echoed), `ctx.log` bound to it
 * (and to the caller once `bindCaller` ran), and `ctx.signal`, aborted when the client goes away so slow
 * reads stop early. Trust boundary: the caller and token come only from the bearer guard (auth.ts) and
 * the token is never logged.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { callerLogValue, type RequestContext } from '../../identity/caller.js';
import { whenClosed, type HttpRequest, type HttpResponse, type Step } from './exchange.js';

/** The header a request id travels in, both ways. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

// Ids from outside end up in log lines and a response header: keep them short and plain.
const SANE_REQUEST_ID = /^[A-Za-z0-9._:+/=-]{1,128}$/;

/** The incoming id when it is sane, else a fresh UUID. */
export function requestIdOf(incoming: string | string[] | undefined): string {
  const value = Array.isArray(incoming) ? incoming[0] : incoming;
  return value !== undefined && SANE_REQUEST_ID.test(value) ? value : randomUUID();
}

/** The caller's GitHub user token for commit mode (REST and MCP alike); never logged, never stored. */
export const GITHUB_TOKEN_HEADER = 'x-github-token';

/** The token when it is one printable word (as GitHub tokens are), else undefined. */
export function githubTokenOf(value: string | string[] | undefined): string | undefined {
  const token = (Array.isArray(value) ? value[0] : value)?.trim();
  return token && /^[\x21-\x7e]{1,1024}$/.test(token) ? token : undefined;
}

/**
 * The context `requestContext` sets. The child logger and the abort signal are made when first
 * asked for: most requests log nothing but their access line (written without them) and many never
 * hand a signal on, and both cost more than the rest of the context together on `GET /info`. They
 * are accessors on the object itself, so a spread (`{ ...req.ctx }`) copies their values, and every
 * context shares the same two accessor functions: accessors made per object give each object its
 * own hidden class, which V8 keeps in the old generation, where it held every request's objects
 * through the young collections (the heap grew by ~4 KB a request until a full collection).
 */
class HttpRequestContext implements RequestContext {
  declare readonly log: Logger;
  declare readonly signal: AbortSignal;
  declare githubToken?: string;
  #root: Logger;
  #child: Logger | undefined;
  #controller: AbortController | undefined;
  #clientLeft: Error | undefined;

  static readonly #accessors: PropertyDescriptorMap = {
    log: {
      enumerable: true,
      configurable: true,
      get(this: HttpRequestContext): Logger {
        this.#child ??= this.#root.child({ requestId: this.requestId });
        return this.#child;
      },
    },
    signal: {
      enumerable: true,
      configurable: true,
      get(this: HttpRequestContext): AbortSignal {
        if (!this.#controller) {
          this.#controller = new AbortController();
          if (this.#clientLeft) this.#controller.abort(this.#clientLeft);
        }
        return this.#controller.signal;
      },
    },
  };

  constructor(readonly requestId: string, root: Logger) {
    this.#root = root;
    Object.defineProperties(this, HttpRequestContext.#accessors);
  }

  /** The client went away before the answer was complete. */
  clientLeft(): void {
    this.#clientLeft = new Error('the client closed the connection');
    this.#controller?.abort(this.#clientLeft);
  }
}

/** Sets `req.ctx` (request id, logger, abort signal, GitHub token) and echoes the id in the response. */
export function requestContext(log: Logger): Step {
  return (req: HttpRequest, res: HttpResponse): void => {
    const requestId = requestIdOf(req.headers['x-request-id']);
    res.setHeader(REQUEST_ID_HEADER, requestId);
    const ctx = new HttpRequestContext(requestId, log);
    // 'close' also fires after a complete response; only an unfinished one means the client left.
    whenClosed(res, (ended) => {
      if (!ended.writableFinished) ctx.clientLeft();
    });
    const githubToken = githubTokenOf(req.headers[GITHUB_TOKEN_HEADER]);
    if (githubToken) ctx.githubToken = githubToken;
    req.ctx = ctx;
  };
}

/**
 * Copies the verified caller (set by the bearer guard) into the context and binds
 * `caller` to its logger. Without a guard in front it leaves the context as it is:
 * the service then acts as its ServiceAccount.
 */
export function bindCaller(): Step {
  return (req: HttpRequest): void => {
    if (req.caller) {
      req.ctx = {
        ...req.ctx,
        caller: req.caller,
        token: req.callerToken,
        log: req.ctx.log.child({ caller: callerLogValue(req.caller) }),
      };
    }
  };
}
