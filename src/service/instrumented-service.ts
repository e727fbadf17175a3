/**
 * Hooks around every operation of the AgentService (metrics count writes by outcome,
 * tracing opens a span per operation). A Proxy, so operations added later are covered
 * without touching this file. The operation's name is the tool name (`createAgent` is
 * `create_agent`); `write` says whether it is a write (create, update, delete, rollback,
 * and the session turns), which is what the write metrics count.
 */
import { AppError } from '../core/errors.js';
import { asObject } from '../core/json.js';

/** One service operation, as hooks see it. */
export interface OperationCall {
  /** The tool name: `create_agent`, `get_info`, … */
  readonly name: string;
  readonly write: boolean;
}

/** Runs around one operation; must return (or rethrow) what `run` does. */
export type OperationHook = <T>(call: OperationCall, run: () => Promise<T>) => Promise<T>;

// The session turns (start_session, send_message) are writes too: they spend the agent's model tokens.
const WRITE = /^(create|update|delete|rollback|startSession|sendMessage)/;

/** `service` with every method run through the hooks (outermost first). */
export function instrumentService<S extends object>(service: S, hooks: readonly OperationHook[]): S {
  if (hooks.length === 0) return service;
  // One wrapper per method, made on its first use (every request looks its operation up).
  const wrappers = new Map<string, { method: unknown; wrapper: unknown }>();
  return new Proxy(service, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string' || property === 'constructor') return value;
      const known = wrappers.get(property);
      if (known?.method === value) return known.wrapper;
      const call: OperationCall = { name: property.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
        write: WRITE.test(property) };
      const wrapper = (...args: unknown[]) => {
        const run = (): Promise<unknown> =>
          Promise.resolve<unknown>(Reflect.apply(value, target, args));
        return hooks.reduceRight<() => Promise<unknown>>((inner, hook) => () => hook(call, inner), run)();
      };
      wrappers.set(property, { method: value, wrapper });
      return wrapper;
    },
  });
}

/** The outcome label of a finished operation: `ok`, the AppError's code, or `internal`. */
export function operationOutcome(error?: unknown): string {
  if (error === undefined) return 'ok';
  return error instanceof AppError ? error.code : 'internal';
}

/**
 * The outcome of a write that succeeded: `dry_run` when its result says nothing was stored
 * (`dryRun: true`), so dry runs are never counted as applied or proposed writes; else `ok`.
 */
export function writeOutcome(result: unknown): 'ok' | 'dry_run' {
  return asObject(result).dryRun === true ? 'dry_run' : 'ok';
}
