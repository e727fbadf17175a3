/**
 * Hooks around every operation of the AgentService (metrics count writes by outcome,
 * tracing opens a span per operation). A Proxy, so operations added later are covered
 * without touching this file. The operation's name is the tool name (`createAgent` is
 * `create_agent`); `write` says whether it is a write (create, update, delete, rollback,
 * and the session turns), which is what the write metrics count.
 */
import { AppError } from '../core/errors.js';
// The session turns (start_session, send_message) are writes too: they spend the agent's model tokens.
const WRITE = /^(create|update|delete|rollback|startSession|sendMessage)/;
/** `service` with every method run through the hooks (outermost first). */
export function instrumentService(service, hooks) {
    if (hooks.length === 0)
        return service;
    return new Proxy(service, {
        get(target, property, receiver) {
            const value = Reflect.get(target, property, receiver);
            if (typeof value !== 'function' || typeof property !== 'string' || property === 'constructor')
                return value;
            const call = { name: property.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
                write: WRITE.test(property) };
            return (...args) => {
                const run = () => Promise.resolve(value.apply(target, args));
                return hooks.reduceRight((inner, hook) => () => hook(call, inner), run)();
            };
        },
    });
}
/** The outcome label of a finished operation: `ok`, the AppError's code, or `internal`. */
export function operationOutcome(error) {
    if (error === undefined)
        return 'ok';
    return error instanceof AppError ? error.code : 'internal';
}
/**
 * The outcome of a write that succeeded: `dry_run` when its result says nothing was stored
 * (`dryRun: true`), so dry runs are never counted as applied or proposed writes; else `ok`.
 */
export function writeOutcome(result) {
    return typeof result === 'object' && result !== null && result.dryRun === true ? 'dry_run'
        : 'ok';
}
//# sourceMappingURL=instrumented-service.js.map