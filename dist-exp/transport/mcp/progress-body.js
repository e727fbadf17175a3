/** Reads the request body (up to `limit` + 1 bytes; the rest is discarded) and leaves it as `req.rawBody`. */
export async function bufferBody(req, limit) {
    if (Number(req.headers['content-length']) > limit)
        return undefined;
    const chunks = [];
    let size = 0;
    for await (const chunk of req) {
        if (size > limit)
            continue;
        const room = limit + 1 - size;
        const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
        chunks.push(part);
        size += part.length;
    }
    const body = Buffer.concat(chunks);
    req.rawBody = body;
    return body;
}
/** A body's text and parsed JSON; undefined when there is none, it is over `limit`, or it is not JSON. */
export function parseMessage(body, limit) {
    if (!body || body.length === 0 || body.length > limit)
        return undefined;
    const text = body.toString('utf8');
    try {
        return { text, value: JSON.parse(text) };
    }
    catch {
        return undefined;
    }
}
/** True when a parsed JSON-RPC message (or one of a batch) is a request asking for progress. */
export function asksForProgress(parsed) {
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    // Any JSON may arrive here (`null`, a number, a batch of strings): only an object with
    // an `id` is a request, and only an object `_meta` can carry a token. The transport
    // answers every other shape in its own words.
    return messages.some((m) => {
        if (!isObject(m) || m.id === undefined || !isObject(m.params) || !isObject(m.params._meta))
            return false;
        const token = m.params._meta.progressToken;
        return token !== undefined && token !== null;
    });
}
function isObject(v) {
    return typeof v === 'object' && v !== null && !Array.isArray(v);
}
//# sourceMappingURL=progress-body.js.map