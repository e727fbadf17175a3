/**
 * A POST body that is JSON but not a JSON-RPC message is an Invalid Request (-32600), as JSON-RPC 2.0
 * defines it, with words naming what is wrong; an empty batch too. The SDK's transport calls both a
 * parse error (-32700, meant for text that is not JSON) or answers an empty batch 202. Messages are
 * checked with the SDK's own schema, so what passes is exactly what the transport accepts.
 */
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
/** Why a parsed body is not one JSON-RPC message or a non-empty batch of them; undefined when it is. */
export function notJsonRpc(parsed) {
    if (!Array.isArray(parsed))
        return problem(parsed);
    if (parsed.length === 0)
        return 'the batch is empty; send a JSON-RPC message';
    for (const [i, message] of parsed.entries()) {
        const p = problem(message);
        if (p)
            return `batch entry ${i}: ${p}`;
    }
    return undefined;
}
function problem(m) {
    if (JSONRPCMessageSchema.safeParse(m).success)
        return undefined;
    if (typeof m !== 'object' || m === null || Array.isArray(m))
        return `a JSON-RPC message is an object, not ${kind(m)}`;
    const message = m;
    if (message.jsonrpc !== '2.0')
        return 'jsonrpc must be "2.0"';
    if ('method' in message && typeof message.method !== 'string')
        return 'method must be a string';
    if ('id' in message && typeof message.id !== 'string' && !Number.isSafeInteger(message.id)) {
        return 'id must be a string or a whole number (MCP allows no null id)';
    }
    if ('params' in message && (typeof message.params !== 'object' || message.params === null ||
        Array.isArray(message.params))) {
        return 'params must be an object (MCP passes parameters by name)';
    }
    const meta = message.params?._meta;
    if (meta !== undefined && (typeof meta !== 'object' || meta === null || Array.isArray(meta))) {
        return 'params._meta must be an object';
    }
    const token = meta?.progressToken;
    if (token !== undefined && typeof token !== 'string' && typeof token !== 'number') {
        return 'params._meta.progressToken must be a string or a number';
    }
    if (!('method' in message) && !('result' in message) && !('error' in message)) {
        return 'a message needs a method (a request or a notification) or a result or an error (a response)';
    }
    return 'it is none of a request {jsonrpc, id, method, params?}, a notification {jsonrpc, method, params?} or a ' +
        'response {jsonrpc, id, result or error}';
}
function kind(v) {
    if (v === null)
        return 'null';
    if (Array.isArray(v))
        return 'an array';
    return `a ${typeof v}`;
}
/**
 * True when the request's headers pass the transport's own checks (it accepts JSON and
 * SSE, and sends JSON), so a wrong Accept or Content-Type is still answered 406 or 415
 * by the transport before anything is said about the body.
 */
export function headersAcceptable(req) {
    const accept = req.headers.accept ?? '';
    return accept.includes('application/json') && accept.includes('text/event-stream') &&
        req.is('application/json') === 'application/json';
}
//# sourceMappingURL=message-shape.js.map