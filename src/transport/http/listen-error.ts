/**
 * A listener that could not bind. Startup stops with one line naming the flag that sets
 * the address, because the fix is always the same: free the address or choose another.
 * The CLI exits 2 for it (a configuration problem, like a bad flag), and it is raised
 * before anything logs that the service is ready.
 */
import { asObject, optionalString } from '../../core/json.js';

/** Bind failures that a different address fixes, with what each means in words. */
const REASONS: Readonly<Record<string, string>> = {
  EADDRINUSE: 'the address is already in use',
  EACCES: 'binding it needs privileges this process does not have',
  EADDRNOTAVAIL: 'no network interface of this machine has that address',
};

export class ListenError extends Error {
  override readonly name = 'ListenError';
  /** The CLI's exit code: a configuration problem. */
  readonly exitCode = 2;

  constructor(readonly flag: string, readonly address: string, reason: string, options?: ErrorOptions) {
    super(`${flag} ${address}: ${reason}; stop what holds it or choose another address with ${flag}`, options);
  }
}

/** `err` as a ListenError naming `flag` when it is a bind failure; otherwise `err` itself. */
export function asListenError(err: unknown, flag: string, address: string): unknown {
  const code = optionalString(asObject(err).code);
  const reason = code ? REASONS[code] : undefined;
  return reason ? new ListenError(flag, address, reason, { cause: err }) : err;
}
