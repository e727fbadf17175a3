import { unauthenticated } from '../core/errors.js';
/** Map verified id_token claims to the caller (`sub`, `email`, `name`, `groups`; source `sso`). */
export function callerFromClaims(payload) {
    const subject = payload.sub;
    if (typeof subject !== 'string' || subject === '') {
        throw unauthenticated('token has no subject (sub); the identity provider must name the person');
    }
    const caller = { subject, groups: groupsOf(payload['groups']), source: 'sso' };
    const email = payload['email'];
    if (typeof email === 'string' && email !== '')
        caller.email = email;
    const name = payload['name'];
    if (typeof name === 'string' && name !== '')
        caller.name = name;
    return caller;
}
/** The `groups` claim as strings: Dex sends an array; anything else names no group. */
function groupsOf(claim) {
    if (!Array.isArray(claim))
        return [];
    return claim.filter((g) => typeof g === 'string' && g !== '');
}
//# sourceMappingURL=claims.js.map