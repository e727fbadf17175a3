import { shutdownUnavailable, toAppError, toRestErrorBody } from '../../core/errors.js';
import { flagValue, queryFlag, queryInteger } from './rest-input.js';
/** How often a quiet stream sends a comment line. */
export const HEARTBEAT_MS = 15_000;
/** The `id` of the `end` event, and the Last-Event-ID of a reconnection after it. */
export const END_EVENT_ID = 'end';
/** One server-sent event: compact JSON on one `data:` line (JSON.stringify never emits a newline). */
function writeEvent(res, event, data, id) {
    res.write(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}
/** The stream handler of the status route; passes every request without `watch=true` on. */
export function statusStream(service, contextOf) {
    return async (req, res, next) => {
        const watch = flagValue('watch', req.query.watch);
        if (watch === undefined || !queryFlag('watch', watch))
            return next();
        if (req.get('last-event-id') === END_EVENT_ID) {
            res.status(204).end();
            return;
        }
        const timeText = flagValue('timeoutSeconds', req.query.timeoutSeconds);
        const timeoutSeconds = timeText === undefined ? undefined : queryInteger('timeoutSeconds', timeText);
        const generationText = flagValue('generation', req.query.generation);
        const generation = generationText === undefined ? undefined : queryInteger('generation', generationText);
        // The workload cluster, as on the plain route (the service refuses one without the other).
        const organization = flagValue('organization', req.query.organization);
        const cluster = flagValue('cluster', req.query.cluster);
        const head = req.method === 'HEAD';
        const headDone = new AbortController();
        const requestCtx = contextOf(req);
        const ctx = head
            ? {
                ...requestCtx,
                signal: requestCtx.signal ? AbortSignal.any([requestCtx.signal, headDone.signal]) : headDone.signal,
            }
            : requestCtx;
        let heartbeat;
        const open = () => {
            res.status(200);
            res.setHeader('Content-Type', 'text/event-stream');
            res.setHeader('Cache-Control', 'no-cache, private, no-transform');
            res.setHeader('X-Accel-Buffering', 'no');
            res.flushHeaders();
            if (head)
                return;
            heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
            heartbeat.unref();
        };
        const onStatus = (status) => {
            if (!res.headersSent)
                open();
            // HEAD: the first status decided the headers; stop following (outside the waiter's callback).
            if (head)
                queueMicrotask(() => headDone.abort(new Error('a HEAD request has no stream to follow')));
            else
                writeEvent(res, 'status', status);
        };
        try {
            const end = await service.followAgentStatus(ctx, {
                namespace: String(req.params.namespace), name: String(req.params.name), timeoutSeconds,
                ...(generation === undefined ? {} : { generation }), ...(organization === undefined ? {} : { organization }),
                ...(cluster === undefined ? {} : { cluster }),
            }, onStatus);
            if (end === 'shutdown' && !res.headersSent) {
                throw shutdownUnavailable(String(req.params.namespace), String(req.params.name));
            }
            // A shutdown ends the stream without the `end` id: the wait is not over, so an EventSource reconnects.
            if (!head && end === 'shutdown')
                writeEvent(res, 'end', { reason: 'shutdown' });
            else if (!head && end !== 'disconnected')
                writeEvent(res, 'end', { reason: end }, END_EVENT_ID);
            res.end();
        }
        catch (err) {
            if (!res.headersSent)
                throw err;
            const error = toAppError(err);
            if (error.code === 'backend_error')
                ctx.log.error({ err: error.message }, 'status stream failed');
            if (!head)
                writeEvent(res, 'error', toRestErrorBody(error));
            res.end();
        }
        finally {
            clearInterval(heartbeat);
        }
    };
}
//# sourceMappingURL=status-stream.js.map