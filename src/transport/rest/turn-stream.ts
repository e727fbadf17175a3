/**
 * `POST …/sessions` and `…/messages` with `Accept: text/event-stream`: the agent's turn as server-sent
 * events (`update` per status update, `turn` with the JSON answer's body, `error` when the turn fails
 * after the stream opened), for a portal showing the answer as it comes. A refusal before anything was
 * sent is the usual JSON error; a request not accepting the stream goes on to the JSON route. A start's
 * stream carries the `Location` its JSON answer has, sent with the headers at the first update.
 */
import accepts from 'accepts';
import { toAppError, toRestErrorBody } from '../../core/errors.js';
import type { Turn } from '../../core/types.js';
import type { RequestContext } from '../../identity/caller.js';
import type { AnyOperation, OperationService } from '../operations.js';
import { restInput } from './rest-input.js';
import { header, type HttpRequest, type HttpResponse, type Step } from '../http/exchange.js';

/** True when the request asks for an event stream (and not JSON first). */
export function wantsEventStream(req: HttpRequest): boolean {
  return accepts(req).type(['application/json', 'text/event-stream']) === 'text/event-stream' &&
    /text\/event-stream/i.test(header(req, 'accept') ?? '');
}

function writeEvent(res: HttpResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

export function turnStream(
  operation: AnyOperation, service: OperationService, contextOf: (req: HttpRequest) => RequestContext,
): Step {
  const run = operation.rest.turnStream;
  return async (req, res) => {
    if (!run || !wantsEventStream(req)) return false;
    const ctx = contextOf(req);
    const input = await restInput(operation, req);
    // The headers go out with the first update, so the `Location` of a start comes with it, not with the answer.
    const open = (location?: string): void => {
      if (res.headersSent) return;
      if (location) res.setHeader('Location', location);
      res.statusCode = operation.rest.status;
      res.setHeader('Content-Type', 'text/event-stream');
      res.setHeader('Cache-Control', 'no-cache, private, no-transform');
      res.setHeader('X-Accel-Buffering', 'no');
      res.flushHeaders();
    };
    try {
      const result = await run(service, ctx, input, (turn: Turn, location?: string) => {
        open(location);
        writeEvent(res, 'update', turn);
      });
      open(operation.rest.location?.(result));
      writeEvent(res, 'turn', result);
      res.end();
    } catch (err) {
      if (!res.headersSent) throw err;
      const error = toAppError(err);
      if (error.code === 'backend_error') ctx.log.error({ err: error.message }, 'turn stream failed');
      writeEvent(res, 'error', toRestErrorBody(error));
      res.end();
    }
    return true;
  };
}
