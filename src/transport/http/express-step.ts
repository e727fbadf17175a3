/**
 * Our steps and handlers as express 5 middleware. A step (exchange.ts) answers and returns true, or
 * returns nothing for the request to go on: as middleware it calls `next()` only when it did not answer.
 * A step that throws or rejects reaches express's error middleware (express 5 forwards a rejected
 * promise to `next(err)` itself). Steps keep their plain (req, res) shape so their tests run them alone.
 */
import type { IncomingMessage } from 'node:http';
import { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Handler, HttpRequest, Step } from './exchange.js';

/**
 * An express request as our steps see it, the one place the code base asserts that view. Express 5 hands
 * over node's own request with `path`, `query` (node's querystring: app.ts sets `query parser` to `simple`)
 * and `params` set; the fields HttpRequest adds (`ctx`, `route`, `caller`, …) are ours to set, and are read
 * as possibly unset where a request may not have met the step that sets them.
 */
export function httpRequestOf(req: Request): HttpRequest {
  const incoming: IncomingMessage = req;
  // safe: as the comment above says, express's request is node's with the fields HttpRequest reads.
  return incoming as HttpRequest;
}

/** `step` as middleware: the next one runs unless the step answered. */
export function middleware(step: Step): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const outcome = step(httpRequestOf(req), res);
    if (outcome === true) return;
    if (outcome instanceof Promise) {
      return outcome.then((answered) => {
        if (answered !== true) next();
      });
    }
    next();
  };
}

/** `handler` as the last middleware of a chain: it answers every request it is given. */
export function endpoint(handler: Handler): RequestHandler {
  return (req: Request, res: Response) => handler(httpRequestOf(req), res);
}

/**
 * A chain that runs only for requests `applies` accepts (the others skip it whole with
 * `next('router')`), so a path's steps never run for another path and the URL is never cut
 * as a mounted router would cut it (every step and log line sees the full path).
 */
export function chainFor(applies: (req: HttpRequest) => boolean, handlers: readonly RequestHandler[]): Router {
  const router = Router();
  router.use((req: Request, _res: Response, next: NextFunction) => {
    next(applies(httpRequestOf(req)) ? undefined : 'router');
  });
  for (const handler of handlers) router.use(handler);
  return router;
}
