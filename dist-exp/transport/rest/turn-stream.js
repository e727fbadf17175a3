import { toAppError, toRestErrorBody } from '../../core/errors.js';
import { restInput } from './rest-input.js';
/** True when the request asks for an event stream (and not JSON first). */
export function wantsEventStream(req) {
    return req.accepts(['application/json', 'text/event-stream']) === 'text/event-stream' &&
        /text\/event-stream/i.test(req.get('accept') ?? '');
}
function writeEvent(res, event, data) {
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}
export function turnStream(operation, service, contextOf) {
    const run = operation.rest.turnStream;
    return async (req, res, next) => {
        if (!run || !wantsEventStream(req))
            return next();
        const ctx = contextOf(req);
        const input = await restInput(operation, req);
        const open = () => {
            if (res.headersSent)
                return;
            res.status(operation.rest.status);
            res.setHeader('Content-Type', 'text/event-stream');
            res.setHeader('Cache-Control', 'no-cache, private, no-transform');
            res.setHeader('X-Accel-Buffering', 'no');
            res.flushHeaders();
        };
        try {
            const result = await run(service, ctx, input, (turn) => {
                open();
                writeEvent(res, 'update', turn);
            });
            const location = operation.rest.location?.(result);
            if (location && !res.headersSent)
                res.setHeader('Location', location);
            open();
            writeEvent(res, 'turn', result);
            res.end();
        }
        catch (err) {
            if (!res.headersSent)
                throw err;
            const error = toAppError(err);
            if (error.code === 'backend_error')
                ctx.log.error({ err: error.message }, 'turn stream failed');
            writeEvent(res, 'error', toRestErrorBody(error));
            res.end();
        }
    };
}
//# sourceMappingURL=turn-stream.js.map