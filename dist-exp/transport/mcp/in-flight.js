/**
 * Tool calls in flight on this process, so a `notifications/cancelled`, which arrives on a POST of its
 * own with a fresh server, reaches the call it names and the call stops and frees its watches (as the
 * MCP specification asks). A call is keyed by JSON-RPC id and sender (the OAuth subject), so nobody
 * cancels another's call; an ambiguous key or a call on another replica is ignored, as the
 * specification allows. Correctness never depends on this table; it only frees resources sooner.
 */
import { CancelledNotificationSchema, isJSONRPCNotification, } from '@modelcontextprotocol/sdk/types.js';
/** The calls in flight on this process, by sender and request id. */
export class InFlightCalls {
    calls = new Map();
    /** Track a call until the returned function is called (when it has answered or its response closed). */
    track(ctx, id, cancel) {
        const key = callKey(ctx, id);
        const same = this.calls.get(key) ?? new Set();
        same.add(cancel);
        this.calls.set(key, same);
        let tracked = true;
        return () => {
            if (!tracked)
                return;
            tracked = false;
            same.delete(cancel);
            if (same.size === 0 && this.calls.get(key) === same)
                this.calls.delete(key);
        };
    }
    /** Cancel the one call the notification names; false when none or several match (ignored). */
    cancel(ctx, notification) {
        const id = notification.params.requestId;
        if (id === undefined)
            return false;
        const same = this.calls.get(callKey(ctx, id));
        if (!same || same.size !== 1)
            return false;
        const [cancel] = same;
        cancel(notification);
        return true;
    }
    /** How many calls are in flight (for tests). */
    get size() {
        let n = 0;
        for (const same of this.calls.values())
            n += same.size;
        return n;
    }
}
/** The sender and the id; a string id and a number id are different ids. */
function callKey(ctx, id) {
    const sender = ctx.caller ? `${ctx.caller.source}:${ctx.caller.subject}` : '';
    return `${sender}\u0000${JSON.stringify(id)}`;
}
/** The message as a `notifications/cancelled` naming a request, or undefined. */
export function asCancellation(message) {
    if (!isJSONRPCNotification(message) || message.method !== 'notifications/cancelled')
        return undefined;
    const parsed = CancelledNotificationSchema.safeParse(message);
    return parsed.success && parsed.data.params.requestId !== undefined ? parsed.data : undefined;
}
/**
 * The id of a body that is exactly one `tools/call` request. Only such calls are tracked:
 * a batch shares one response among its requests, which cannot end for one of them alone.
 */
export function singleToolCallId(parsed) {
    if (!isObject(parsed) || parsed.method !== 'tools/call')
        return undefined;
    const id = parsed.id;
    return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : undefined;
}
function isObject(v) {
    return typeof v === 'object' && v !== null && !Array.isArray(v);
}
//# sourceMappingURL=in-flight.js.map