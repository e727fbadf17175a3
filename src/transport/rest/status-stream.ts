/**
 * `GET …/status?watch=true`: the agent's status as a server-sent event stream (WHATWG HTML) while it
 * is waited for: `event: status` at once and on every change, `event: end` with the reason, keep-alive
 * comments every 15 s. `end` carries `id: end` so a reconnecting EventSource is answered 204 and stops;
 * a shutdown ends without an id so it reconnects elsewhere; refusals before the first status are plain
 * JSON errors; `HEAD` ends after the first status (RFC 9110 §9.3.2). Headers keep proxies from caching,
 * compressing or buffering. docs/safe-change.md "Waiting for the rollout" gives the protocol in full.
 */
import { shutdownUnavailable, toAppError, toRestErrorBody } from '../../core/errors.js';
import type { Status } from '../../core/types.js';
import type { RequestContext } from '../../identity/caller.js';
import type { OperationService } from '../operations.js';
import { header, type HttpRequest, type HttpResponse, type Step } from '../http/exchange.js';
import { flagValue, queryFlag, queryInteger } from './rest-input.js';

/** How often a quiet stream sends a comment line. */
export const HEARTBEAT_MS = 15_000;

/** The `id` of the `end` event, and the Last-Event-ID of a reconnection after it. */
export const END_EVENT_ID = 'end';

/** One server-sent event: compact JSON on one `data:` line (JSON.stringify never emits a newline). */
function writeEvent(res: HttpResponse, event: string, data: unknown, id?: string): void {
  res.write(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

/** The stream step of the status route; answers `watch=true` and leaves every other request to the route. */
export function statusStream(
  service: Pick<OperationService, 'followAgentStatus'>, contextOf: (req: HttpRequest) => RequestContext,
): Step {
  return async (req, res) => {
    const watch = flagValue('watch', req.query.watch);
    if (watch === undefined || !queryFlag('watch', watch)) return false;
    if (header(req, 'last-event-id') === END_EVENT_ID) {
      res.statusCode = 204;
      res.end();
      return true;
    }
    const input = followInput(req);
    const head = req.method === 'HEAD';
    const { ctx, headDone } = streamContext(contextOf(req), head);
    let heartbeat: NodeJS.Timeout | undefined;
    const onStatus = (status: Status): void => {
      if (!res.headersSent) heartbeat = openEventStream(res, head);
      // HEAD: the first status decided the headers; stop following (outside the waiter's callback).
      if (head) queueMicrotask(() => headDone.abort(new Error('a HEAD request has no stream to follow')));
      else writeEvent(res, 'status', status);
    };
    try {
      const end = await service.followAgentStatus(ctx, input, onStatus);
      if (end === 'shutdown' && !res.headersSent) throw shutdownUnavailable(input.namespace, input.name);
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
    return true;
  };
}

/** The agent, the wait's bounds and the workload cluster, from the path and the query (as on the plain route). */
function followInput(req: HttpRequest): Parameters<OperationService['followAgentStatus']>[1] & {
  namespace: string; name: string;
} {
  const query = req.query;
  const timeText = flagValue('timeoutSeconds', query.timeoutSeconds);
  const timeoutSeconds = timeText === undefined ? undefined : queryInteger('timeoutSeconds', timeText);
  const generationText = flagValue('generation', query.generation);
  const generation = generationText === undefined ? undefined : queryInteger('generation', generationText);
  // The workload cluster, as on the plain route (the service refuses one without the other).
  const organization = flagValue('organization', query.organization);
  const cluster = flagValue('cluster', query.cluster);
  return {
    namespace: String(req.params.namespace), name: String(req.params.name), timeoutSeconds,
    ...(generation === undefined ? {} : { generation }), ...(organization === undefined ? {} : { organization }),
    ...(cluster === undefined ? {} : { cluster }),
  };
}

/** The request's context; for HEAD, one whose signal also ends once `headDone` aborts (after the first status). */
function streamContext(requestCtx: RequestContext, head: boolean): { ctx: RequestContext; headDone: AbortController } {
  const headDone = new AbortController();
  if (!head) return { ctx: requestCtx, headDone };
  const signal = requestCtx.signal ? AbortSignal.any([requestCtx.signal, headDone.signal]) : headDone.signal;
  return { ctx: { ...requestCtx, signal }, headDone };
}

/** Sends the stream's headers; the keep-alive timer of a GET (HEAD has no body to keep alive). */
function openEventStream(res: HttpResponse, head: boolean): NodeJS.Timeout | undefined {
  res.statusCode = 200;
  res.setHeader('Content-Type', 'text/event-stream');
  res.setHeader('Cache-Control', 'no-cache, private, no-transform');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  if (head) return undefined;
  const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  return heartbeat;
}
