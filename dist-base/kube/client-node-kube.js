import { fromKube, kubeStatus } from './kube-errors.js';
const singular = (gvr) => gvr.kind.toLowerCase();
export class ClientNodeKube {
    apis;
    constructor(apis) {
        this.apis = apis;
    }
    /** A failed call as an AppError; a deadline that ran out is named with its length. */
    failure(err, what) {
        return fromKube(err, what, this.apis.requestTimeoutMs);
    }
    async get(gvr, namespace, name) {
        try {
            return withKind(await this.apis.readObject(gvr, namespace, name), gvr);
        }
        catch (err) {
            if (kubeStatus(err) === 404)
                return undefined;
            throw this.failure(err, `get ${singular(gvr)} ${namespace}/${name}`);
        }
    }
    async list(gvr, namespace, options = {}) {
        const { labelSelector, fieldSelector } = options;
        try {
            const list = (await this.apis.listObjects(gvr, namespace, { labelSelector, fieldSelector }));
            return (list.items ?? []).map((item) => withKind(item, gvr));
        }
        catch (err) {
            throw this.failure(err, `list ${gvr.resource} in ${namespace}`);
        }
    }
    async create(gvr, object, options = {}) {
        const namespace = object.metadata.namespace ?? '';
        try {
            const { group, version, resource: plural } = gvr;
            return (await this.apis.custom.createNamespacedCustomObject({
                group, version, namespace, plural, body: object, dryRun: dryRunOf(options),
            }));
        }
        catch (err) {
            throw this.failure(err, `create ${singular(gvr)} ${namespace}/${object.metadata.name}`);
        }
    }
    async replace(gvr, object, options = {}) {
        const namespace = object.metadata.namespace ?? '';
        const name = object.metadata.name;
        try {
            const { group, version, resource: plural } = gvr;
            return (await this.apis.custom.replaceNamespacedCustomObject({
                group, version, namespace, plural, name, body: object, dryRun: dryRunOf(options),
            }));
        }
        catch (err) {
            throw this.failure(err, `update ${singular(gvr)} ${namespace}/${name}`);
        }
    }
    async remove(gvr, namespace, name, options = {}) {
        try {
            const { group, version, resource: plural } = gvr;
            const body = options.resourceVersion
                ? { preconditions: { resourceVersion: options.resourceVersion } }
                : undefined;
            await this.apis.custom.deleteNamespacedCustomObject({
                group, version, namespace, plural, name, dryRun: dryRunOf(options), body,
            });
            return true;
        }
        catch (err) {
            if (kubeStatus(err) === 404)
                return false;
            throw this.failure(err, `delete ${singular(gvr)} ${namespace}/${name}`);
        }
    }
}
/** The `dryRun` query value: `All` is the only one the API defines. */
const dryRunOf = (options) => (options.dryRun ? 'All' : undefined);
function withKind(object, gvr) {
    const obj = object;
    obj.apiVersion ??= gvr.group ? `${gvr.group}/${gvr.version}` : gvr.version;
    obj.kind ??= gvr.kind;
    return obj;
}
//# sourceMappingURL=client-node-kube.js.map