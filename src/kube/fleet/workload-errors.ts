/**
 * A workload cluster's API server that refuses the caller's token does not trust the
 * installation's identity provider: a cluster trusts id_tokens only of the OIDC issuer
 * and client id it was created with. The 401 says so, after what was refused.
 */
import { AppError, ErrorCode, unauthenticated } from '../../core/errors.js';
import type { RequestContext } from '../../identity/caller.js';
import type { KubePort, KubeProvider, WatchPort } from '../../service/ports.js';

const REFUSED = "the API server refused the caller's token (401)";
const TRUST = "a workload cluster's apiserver must trust the installation's identity provider "
  + '(OIDC issuer and client id set when the cluster is created)';

/** The 401 of a workload cluster in words that say what to fix; any other error as it is. */
export function workloadRefusal<E>(err: E): E | AppError {
  if (!(err instanceof AppError) || err.code !== ErrorCode.Unauthenticated || err.detail.includes(TRUST)) return err;
  const at = err.detail.indexOf(REFUSED);
  const detail = at < 0
    ? `${err.detail}; ${TRUST}`
    : `${err.detail.slice(0, at + REFUSED.length)}; ${TRUST}${err.detail.slice(at + REFUSED.length)}`;
  return unauthenticated(detail, err);
}

/** `port` with every rejection passed through workloadRefusal. */
function translated<T extends object>(port: T): T {
  return new Proxy(port, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        // A watch's end carries its error to the handlers: translate it there too.
        if (property === 'watch') args = withHandlers(args);
        return Promise.resolve<unknown>(Reflect.apply(value, target, args)).catch((err: unknown) => {
          throw workloadRefusal(err);
        });
      };
    },
  });
}

function withHandlers(args: unknown[]): unknown[] {
  // safe: `translated` wraps a WatchPort, whose watch takes its handlers fifth.
  const handlers = args[4] as Parameters<WatchPort['watch']>[4];
  const wrapped: typeof handlers = {
    onEvent: (type, object) => handlers.onEvent(type, object),
    onEnd: (failure) => handlers.onEnd(failure && { ...failure, error: workloadRefusal(failure.error) }),
  };
  return [...args.slice(0, 4), wrapped];
}

/** A caller-token provider of a workload cluster, its 401s worded as above. */
export function trustingIdentityProvider(provider: KubeProvider): KubeProvider {
  return {
    identity: provider.identity,
    forRequest: (ctx: RequestContext): KubePort => translated(provider.forRequest(ctx)),
    ...(provider.forWatches
      ? { forWatches: (ctx: RequestContext): WatchPort => translated(provider.forWatches!(ctx)) }
      : {}),
  };
}
