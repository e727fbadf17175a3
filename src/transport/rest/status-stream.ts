/**
 * `GET /api/v1/agents/{namespace}/{name}/status?watch=true[&timeoutSeconds=N][&generation=G]`: the agent's
 * status as a server-sent event stream (`text/event-stream`, the WHATWG HTML format)
 * instead of one JSON body. Without `watch=true` (absent or `false`) the route is the plain
 * status read; another value is a 400, as for every flag.
 *
 * - `event: status` with the Status JSON at once, then on every change of verdict or summary;
 * - `event: end` with `{"reason": "ready" | "failed" | "deleted" | "timeout"}` once the wait
 *   for ready is over, then the response ends;
 * - a comment line (`: keep-alive`) every 15 s, so proxies and load balancers do not take a
 *   quiet stream for a dead one.
 *
 * The `end` event carries `id: end`. An EventSource reconnects whenever a stream closes,
 * so one whose page does not call `close()` on `end` would start the wait again every few
 * seconds, for ever; its reconnection sends `Last-Event-ID: end`, and that is answered
 * `204 No Content`, which per the WHATWG HTML spec tells it to stop reconnecting. A new
 * EventSource (no Last-Event-ID) follows afresh.
 *
 * Anything refused before the first status (a bad timeoutSeconds, an agent that does not
 * exist, a read the caller may not make) is the usual JSON error with its status; a
 * failure after it is an `event: error` with the error body, then the end. With
 * `generation` the stream does not end ready before the release has reached it. When the
 * server shuts down the stream ends with `event: end` and `{"reason": "shutdown"}` (no
 * `id`, so an EventSource reconnects, to another replica, as the listener no longer
 * accepts: the wait is not over); before the first status it is a 503 with Retry-After.
 * When the client goes away, its watches are stopped.
 *
 * `watch` and `timeoutSeconds` given twice must agree, as every flag (rest-input.ts). A
 * `HEAD` gets the headers the `GET` would (the stream's, or the JSON error) and ends after
 * the first status: it has no body (RFC 9110 §9.3.2), so following on would hold the
 * caller's watches on the API server open for the whole timeout with nothing to send.
 *
 * Headers: `Cache-Control: no-cache, private, no-transform` (no cache, and no proxy
 * compressing, which would buffer the events) and `X-Accel-Buffering: no` (nginx's
 * response buffering off for this response).
 */
import type { Request, RequestHandler, Response } from 'express';
import { shutdownUnavailable, toAppError, toRestErrorBody } from '../../core/errors.js';
import type { Status } from '../../core/types.js';
import type { RequestContext } from '../../identity/caller.js';
import type { OperationService } from '../operations.js';
import { flagValue, queryFlag, queryInteger } from './rest-input.js';

/** How often a quiet stream sends a comment line. */
export const HEARTBEAT_MS = 15_000;

/** The `id` of the `end` event, and the Last-Event-ID of a reconnection after it. */
export const END_EVENT_ID = 'end';

/** One server-sent event: compact JSON on one `data:` line (JSON.stringify never emits a newline). */
function writeEvent(res: Response, event: string, data: unknown, id?: string): void {
  res.write(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

/** The stream handler of the status route; passes every request without `watch=true` on. */
export function statusStream(
  service: Pick<OperationService, 'followAgentStatus'>, contextOf: (req: Request) => RequestContext,
): RequestHandler {
  return async (req, res, next) => {
    const watch = flagValue('watch', req.query.watch);
    if (watch === undefined || !queryFlag('watch', watch)) return next();
    if (req.get('last-event-id') === END_EVENT_ID) {
      res.status(204).end();
      return;
    }
    const timeText = flagValue('timeoutSeconds', req.query.timeoutSeconds);
    const timeoutSeconds = timeText === undefined ? undefined : queryInteger('timeoutSeconds', timeText);
    const generationText = flagValue('generation', req.query.generation);
    const generation = generationText === undefined ? undefined : queryInteger('generation', generationText);
    const head = req.method === 'HEAD';
    const headDone = new AbortController();
    const requestCtx = contextOf(req);
    const ctx: RequestContext = head
      ? { ...requestCtx, signal: requestCtx.signal ? AbortSignal.any([requestCtx.signal, headDone.signal]) : headDone.signal }
      : requestCtx;
    let heartbeat: NodeJS.Timeout | undefined;
    const open = (): void => {
      res.status(200);
      res.setHeader('Content-Type', 'text/event-stream');
      res.setHeader('Cache-Control', 'no-cache, private, no-transform');
      res.setHeader('X-Accel-Buffering', 'no');
      res.flushHeaders();
      if (head) return;
      heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
      heartbeat.unref();
    };
    const onStatus = (status: Status): void => {
      if (!res.headersSent) open();
      // HEAD: the first status decided the headers; stop following (outside the waiter's callback).
      if (head) queueMicrotask(() => headDone.abort(new Error('a HEAD request has no stream to follow')));
      else writeEvent(res, 'status', status);
    };
    try {
      const end = await service.followAgentStatus(ctx, {
        namespace: String(req.params.namespace), name: String(req.params.name), timeoutSeconds, ...(generation === undefined ? {} : { generation }),
      }, onStatus);
      if (end === 'shutdown' && !res.headersSent) throw shutdownUnavailable(String(req.params.namespace), String(req.params.name));
      // A shutdown ends the stream without the `end` id: the wait is not over, so an EventSource reconnects.
      if (!head && end === 'shutdown') writeEvent(res, 'end', { reason: 'shutdown' });
      else if (!head && end !== 'disconnected') writeEvent(res, 'end', { reason: end }, END_EVENT_ID);
      res.end();
    } catch (err) {
      if (!res.headersSent) throw err;
      const error = toAppError(err);
      if (error.code === 'backend_error') ctx.log.error({ err: error.message }, 'status stream failed');
      if (!head) writeEvent(res, 'error', toRestErrorBody(error));
      res.end();
    } finally {
      clearInterval(heartbeat);
    }
  };
}
