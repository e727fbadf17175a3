/**
 * `POST …/sessions` and `…/messages` with `Accept: text/event-stream`: the agent's turn as server-sent
 * events (`update` per status update, `turn` with the JSON answer's body, `error` when the turn fails
 * after the stream opened), for a portal showing the answer as it comes. A refusal before anything was
 * sent is the usual JSON error; a request not accepting the stream goes on to the JSON route.
 */
import type { Request, RequestHandler, Response } from 'express';
import { toAppError, toRestErrorBody } from '../../core/errors.js';
import type { Turn } from '../../core/types.js';
import type { RequestContext } from '../../identity/caller.js';
import type { AnyOperation, OperationService } from '../operations.js';
import { restInput } from './rest-input.js';

/** True when the request asks for an event stream (and not JSON first). */
export function wantsEventStream(req: Request): boolean {
  return req.accepts(['application/json', 'text/event-stream']) === 'text/event-stream' &&
    /text\/event-stream/i.test(req.get('accept') ?? '');
}

function writeEvent(res: Response, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

export function turnStream(
  operation: AnyOperation, service: OperationService, contextOf: (req: Request) => RequestContext,
): RequestHandler {
  const run = operation.rest.turnStream;
  return async (req, res, next) => {
    if (!run || !wantsEventStream(req)) return next();
    const ctx = contextOf(req);
    const input = await restInput(operation, req);
    const open = (): void => {
      if (res.headersSent) return;
      res.status(operation.rest.status);
      res.setHeader('Content-Type', 'text/event-stream');
      res.setHeader('Cache-Control', 'no-cache, private, no-transform');
      res.setHeader('X-Accel-Buffering', 'no');
      res.flushHeaders();
    };
    try {
      const result = await run(service, ctx, input, (turn: Turn) => {
        open();
        writeEvent(res, 'update', turn);
      });
      const location = operation.rest.location?.(result);
      if (location && !res.headersSent) res.setHeader('Location', location);
      open();
      writeEvent(res, 'turn', result);
      res.end();
    } catch (err) {
      if (!res.headersSent) throw err;
      const error = toAppError(err);
      if (error.code === 'backend_error') ctx.log.error({ err: error.message }, 'turn stream failed');
      writeEvent(res, 'error', toRestErrorBody(error));
      res.end();
    }
  };
}
