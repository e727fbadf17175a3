/**
 * The managed namespaces: the default (`--kagent-namespace`) first, then
 * `--managed-namespaces`. A request for any other namespace is refused with a 400 that
 * names the managed ones, so the caller knows what to ask for instead.
 */
import { invalid } from '../core/errors.js';
export class ManagedNamespaces {
    defaultNamespace;
    managed;
    constructor(defaultNamespace, extra = []) {
        this.defaultNamespace = defaultNamespace;
        const all = [defaultNamespace, ...extra.map((n) => n.trim())].filter((n) => n !== '');
        this.managed = all.filter((n, i) => all.indexOf(n) === i);
    }
    /** The namespace a request acts in: empty means the default; outside the set is a 400. */
    resolve(namespace) {
        const ns = (namespace ?? '').trim() || this.defaultNamespace;
        if (!this.managed.includes(ns)) {
            throw invalid(`namespace "${ns}" is not managed by agent-manager (managed: ${this.managed.join(', ')})`);
        }
        return ns;
    }
}
//# sourceMappingURL=namespaces.js.map