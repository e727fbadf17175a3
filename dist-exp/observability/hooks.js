/** The hooks of every contributor present, in the order given (the first is outermost). */
export function collectHooks(...sources) {
    const present = sources.filter((s) => s !== undefined);
    return {
        kube: present.flatMap((s) => (s.kubeHook ? [s.kubeHook] : [])),
        fetch: present.flatMap((s) => (s.fetchHook ? [s.fetchHook] : [])),
        operation: present.flatMap((s) => (s.operationHook ? [s.operationHook] : [])),
    };
}
//# sourceMappingURL=hooks.js.map