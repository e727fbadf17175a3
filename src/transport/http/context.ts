/**
 * The request context every handler runs with: the request id (the incoming `X-Request-Id` when short
 * and plain, so a proxy's id joins our log lines, else a UUID; always echoed), `ctx.log` bound to it
 * (and to the caller once `bindCaller` ran), and `ctx.signal`, aborted when the client goes away so slow
 * reads stop early. Trust boundary: the caller and token come only from the bearer guard (auth.ts) and
 * the token is never logged.
 */
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { callerLogValue, type RequestContext } from '../../identity/caller.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The request's context; set by `requestContext()` before any route runs. */
      ctx: RequestContext;
    }
  }
}

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

/** Sets `req.ctx` (request id, logger, abort signal, GitHub token) and echoes the id in the response. */
export function requestContext(log: Logger): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    const requestId = requestIdOf(req.headers['x-request-id']);
    res.setHeader(REQUEST_ID_HEADER, requestId);
    // The child logger and the abort signal are made when first asked for: most requests
    // log nothing but their access line (written without them) and many never hand a
    // signal on, and both cost more than the rest of the context together on `GET /info`.
    // Accessors on the object itself, so a spread of the context (`{ ...req.ctx }`) copies
    // their values.
    let child: Logger | undefined;
    let controller: AbortController | undefined;
    let clientLeft: Error | undefined;
    // 'close' also fires after a complete response; only an unfinished one means the client left.
    res.once('close', () => {
      if (res.writableFinished) return;
      clientLeft = new Error('the client closed the connection');
      controller?.abort(clientLeft);
    });
    req.ctx = {
      requestId,
      get log(): Logger {
        child ??= log.child({ requestId });
        return child;
      },
      get signal(): AbortSignal {
        if (!controller) {
          controller = new AbortController();
          if (clientLeft) controller.abort(clientLeft);
        }
        return controller.signal;
      },
    };
    const githubToken = githubTokenOf(req.headers[GITHUB_TOKEN_HEADER]);
    if (githubToken) req.ctx.githubToken = githubToken;
    next();
  };
}

/**
 * Copies the verified caller (set by the bearer guard) into the context and binds
 * `caller` to its logger. Without a guard in front it leaves the context as it is:
 * the service then acts as its ServiceAccount.
 */
export function bindCaller(): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (req.caller) {
      req.ctx = {
        ...req.ctx,
        caller: req.caller,
        token: req.callerToken,
        log: req.ctx.log.child({ caller: callerLogValue(req.caller) }),
      };
    }
    next();
  };
}
