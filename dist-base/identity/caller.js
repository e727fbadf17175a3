/** The caller as log lines and results name it: email, else subject. */
export function callerName(caller) {
    if (!caller)
        return undefined;
    return caller.email || caller.subject || undefined;
}
/** The `caller=` value of a write's log line. */
export function callerLogValue(caller) {
    return callerName(caller) ?? 'service-account';
}
/**
 * `{ caller }` for a line written through `ctx.log`, or nothing when that logger already
 * binds it (the HTTP context does once the bearer guard named the caller): pino writes a
 * key given twice twice, and a JSON line with a repeated key is read differently by
 * different log pipelines.
 */
export function callerLogFields(ctx) {
    return Object.hasOwn(ctx.log.bindings(), 'caller') ? {} : { caller: callerLogValue(ctx.caller) };
}
//# sourceMappingURL=caller.js.map