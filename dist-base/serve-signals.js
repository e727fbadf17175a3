/**
 * The signals `serve` stops on: the first SIGTERM or SIGINT starts the shutdown, and a
 * second one during the shutdown delay cuts the delay short (an impatient operator), so
 * Ctrl-C twice never waits for the load balancers' grace period.
 */
/** Wait `ms`, or less when `onSignal` and SIGTERM or SIGINT arrives again (an impatient operator). */
export async function shutdownDelay(ms, onSignal) {
    if (ms <= 0)
        return;
    let timer;
    const elapsed = new Promise((resolve) => { timer = setTimeout(resolve, ms); });
    const again = onSignal ? cancellableSignal() : undefined;
    try {
        await Promise.race([elapsed, ...(again ? [again.signal] : [])]);
    }
    finally {
        clearTimeout(timer);
        again?.cancel();
    }
}
/** The next SIGTERM or SIGINT, with a way to stop listening for it. */
function cancellableSignal() {
    let onSignal;
    const signal = new Promise((resolve) => { onSignal = () => resolve(); });
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
    return { signal, cancel: () => { process.off('SIGTERM', onSignal); process.off('SIGINT', onSignal); } };
}
/** The first SIGTERM or SIGINT. */
export function nextSignal() {
    return new Promise((resolve) => {
        const onSignal = (signal) => {
            process.off('SIGTERM', onSignal);
            process.off('SIGINT', onSignal);
            resolve(signal);
        };
        process.once('SIGTERM', onSignal);
        process.once('SIGINT', onSignal);
    });
}
//# sourceMappingURL=serve-signals.js.map