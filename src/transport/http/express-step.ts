/**
 * Our steps and handlers as express 5 middleware. A step (exchange.ts) answers and returns true, or
 * returns nothing for the request to go on: as middleware it calls `next()` only when it did not answer.
 * A step that throws or rejects reaches express's error middleware (express 5 forwards a rejected
 * promise to `next(err)` itself). Steps keep their plain (req, res) shape so their tests run them alone.
 */
import { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Handler, HttpRequest, HttpResponse, Step } from './exchange.js';

/** `step` as middleware: the next one runs unless the step answered. */
export function middleware(step: Step): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const outcome = step(req as unknown as HttpRequest, res as HttpResponse);
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
  return (req: Request, res: Response) => handler(req as unknown as HttpRequest, res as HttpResponse);
}

/**
 * A chain that runs only for requests `applies` accepts (the others skip it whole with
 * `next('router')`), so a path's steps never run for another path and the URL is never cut
 * as a mounted router would cut it (every step and log line sees the full path).
 */
export function chainFor(applies: (req: HttpRequest) => boolean, handlers: readonly RequestHandler[]): Router {
  const router = Router();
  router.use((req: Request, _res: Response, next: NextFunction) => {
    next(applies(req as unknown as HttpRequest) ? undefined : 'router');
  });
  for (const handler of handlers) router.use(handler);
  return router;
}
