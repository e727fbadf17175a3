/**
 * A listener that could not bind. Startup stops with one line naming the flag that sets
 * the address, because the fix is always the same: free the address or choose another.
 * The CLI exits 2 for it (a configuration problem, like a bad flag), and it is raised
 * before anything logs that the service is ready.
 */
/** Bind failures that a different address fixes, with what each means in words. */
const REASONS = {
    EADDRINUSE: 'the address is already in use',
    EACCES: 'binding it needs privileges this process does not have',
    EADDRNOTAVAIL: 'no network interface of this machine has that address',
};
export class ListenError extends Error {
    flag;
    address;
    name = 'ListenError';
    /** The CLI's exit code: a configuration problem. */
    exitCode = 2;
    constructor(flag, address, reason, options) {
        super(`${flag} ${address}: ${reason}; stop what holds it or choose another address with ${flag}`, options);
        this.flag = flag;
        this.address = address;
    }
}
/** `err` as a ListenError naming `flag` when it is a bind failure; otherwise `err` itself. */
export function asListenError(err, flag, address) {
    const code = err?.code;
    const reason = code ? REASONS[code] : undefined;
    return reason ? new ListenError(flag, address, reason, { cause: err }) : err;
}
//# sourceMappingURL=listen-error.js.map