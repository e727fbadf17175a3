export function lazyMcpHandler(options) {
    let loading;
    const load = () => {
        loading ??= import('./handler.js').then(({ createMcpHandler }) => createMcpHandler(options));
        loading.catch(() => {
            loading = undefined;
        });
        return loading;
    };
    const handler = (req, res, next) => {
        load().then((real) => real(req, res, next), next);
    };
    return { handler, load };
}
//# sourceMappingURL=lazy-handler.js.map