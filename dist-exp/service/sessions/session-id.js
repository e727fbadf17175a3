/**
 * The A2A contextId of a new session. With a requestId it is derived from who asks, the
 * agent and the requestId (a name-based UUID of their SHA-256), so a retry of the same
 * start, on any replica, addresses the same conversation and finds its first turn there
 * instead of starting another: no state is kept in the process. Without one it is random.
 */
import { createHash, randomUUID } from 'node:crypto';
export function sessionContextId(parts) {
    if (parts.requestId === undefined)
        return randomUUID();
    const digest = createHash('sha256')
        .update(JSON.stringify(['agent-manager/session', parts.user ?? '', parts.namespace, parts.name, parts.requestId]))
        .digest();
    // RFC 9562 layout: version 8 (custom), variant 10.
    digest[6] = (digest[6] & 0x0f) | 0x80;
    digest[8] = (digest[8] & 0x3f) | 0x80;
    const hex = digest.subarray(0, 16).toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
//# sourceMappingURL=session-id.js.map