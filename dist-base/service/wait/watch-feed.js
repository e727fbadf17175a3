/**
 * One collection kept current for the rollout waiter by list + watch as the request's identity: list,
 * then watch from its resourceVersion, so nothing between is missed. A watch that ends (timeout, drop,
 * 410 Gone) is resumed by listing again, the only re-read, so nothing is polled; only a watch that died
 * within a second, or a failed list, backs off (250 ms doubling to 10 s). A 401 or 403 is not retried
 * (`onFail` says so); aborting `signal` stops the watch and any retry.
 */
import { toAppError } from '../../core/errors.js';
const MAX_RETRY_MS = 10_000;
/** A watch that lived less than this before it ended counts as a failed try. */
const SHORT_WATCH_MS = 1000;
const denied = (error) => error.code === 'forbidden' || error.code === 'unauthenticated';
/** Lists the collection (rejecting with that list's error) and keeps it current until `signal` aborts. */
export async function openFeed(port, gvr, namespace, selectors, handlers, signal) {
    const items = new Map();
    let watch;
    let retry;
    let failures = 0;
    let failed = false;
    const over = () => signal.aborted || failed;
    const fail = (error) => {
        if (over())
            return;
        failed = true;
        handlers.onFail(error);
    };
    const fill = (list) => {
        items.clear();
        for (const object of list)
            items.set(object.metadata.name, object);
    };
    const startWatch = async (resourceVersion) => {
        const started = Date.now();
        const handle = await port.watch(gvr, namespace, selectors, resourceVersion, {
            onEvent(type, object) {
                if (over() || type === 'BOOKMARK')
                    return;
                if (type === 'DELETED')
                    items.delete(object.metadata.name);
                else
                    items.set(object.metadata.name, object);
                handlers.onChange();
            },
            onEnd(failure) {
                watch = undefined;
                if (over())
                    return;
                if (failure && (failure.status === 401 || failure.status === 403))
                    return fail(failure.error);
                failures = Date.now() - started < SHORT_WATCH_MS ? failures + 1 : 0;
                schedule();
            },
        });
        if (over())
            handle.stop();
        else
            watch = handle;
    };
    const resume = async () => {
        try {
            const list = await port.list(gvr, namespace, selectors);
            if (over())
                return;
            fill(list.items);
            handlers.onChange();
            await startWatch(list.resourceVersion);
        }
        catch (err) {
            if (over())
                return;
            const error = toAppError(err);
            if (denied(error))
                return fail(error);
            failures++;
            schedule();
        }
    };
    const schedule = () => {
        const delay = failures === 0 ? 0 : Math.min(MAX_RETRY_MS, 250 * 2 ** (failures - 1));
        retry = setTimeout(() => void resume(), delay);
    };
    signal.addEventListener('abort', () => {
        clearTimeout(retry);
        watch?.stop();
        watch = undefined;
    }, { once: true });
    const first = await port.list(gvr, namespace, selectors);
    fill(first.items);
    if (!over())
        await startWatch(first.resourceVersion);
    return { objects: () => [...items.values()] };
}
//# sourceMappingURL=watch-feed.js.map