import { kubeStatus } from './kube-errors.js';
const VERBS = { replace: 'update', remove: 'delete' };
/** `port` with every method run through the hooks (outermost first). */
export function instrumentKube(port, hooks) {
    if (hooks.length === 0)
        return port;
    return new Proxy(port, {
        get(target, property, receiver) {
            const value = Reflect.get(target, property, receiver);
            if (typeof value !== 'function' || typeof property !== 'string' || property === 'constructor')
                return value;
            return (...args) => {
                const first = args[0];
                const call = {
                    verb: VERBS[property] ?? property,
                    resource: typeof first?.resource === 'string' ? first.resource : 'unknown',
                    namespace: typeof args[1] === 'string' ? args[1] : undefined,
                };
                const run = () => Promise.resolve(value.apply(target, args));
                return hooks.reduceRight((inner, hook) => () => hook(call, inner), run)();
            };
        },
    });
}
/** The provider with every port it hands out instrumented. */
export function instrumentProvider(provider, hooks) {
    if (hooks.length === 0)
        return provider;
    return new Proxy(provider, {
        get(target, property, receiver) {
            if (property === 'forRequest')
                return (ctx) => instrumentKube(target.forRequest(ctx), hooks);
            if (property === 'forWatches' && target.forWatches) {
                const forWatches = target.forWatches.bind(target);
                return (ctx) => instrumentKube(forWatches(ctx), hooks);
            }
            const value = Reflect.get(target, property, receiver);
            return typeof value === 'function' ? value.bind(target) : value;
        },
    });
}
/** The status label of a call's outcome: a result (absent is 404), or a failure's API status. */
export function kubeCallCode(call, outcome) {
    if ('error' in outcome) {
        const err = outcome.error;
        const status = kubeStatus(err) ?? kubeStatus(err?.cause);
        return status === undefined ? 'error' : String(status);
    }
    if (outcome.result === undefined || outcome.result === false)
        return '404';
    return call.verb === 'create' ? '201' : '200';
}
//# sourceMappingURL=instrumented.js.map