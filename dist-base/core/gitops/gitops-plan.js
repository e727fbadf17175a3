import { changedPaths } from '../diff.js';
import { conflict, notFound } from '../errors.js';
import { addResource, newKustomization, removeResource, resourcesOf } from './gitops-kustomization.js';
import { baseOf, dirOf, isManifest, isUnder, joinPath, KUSTOMIZATION_FILES } from './gitops-paths.js';
import { isEmptyStream, parseFile, plain, replaceDocument, withReleaseValues } from './gitops-yaml.js';
import { toYaml } from '../yaml.js';
/** The directory agent-manager lays new agents out in, below the Kustomization's path. */
export const LAYOUT_DIRECTORY = 'agent-manager';
const SOURCE_FILE = 'agent.yaml';
/** Pending edits over the snapshot, and the files looked at without a change. */
class ChangeSet {
    original;
    next = new Map();
    looked = new Set();
    constructor(original) {
        this.original = original;
    }
    read(path) {
        if (this.next.has(path))
            return this.next.get(path) ?? undefined;
        return this.original[path];
    }
    write(path, content) {
        if (content === this.original[path])
            this.next.delete(path);
        else
            this.next.set(path, content);
        this.looked.add(path);
    }
    paths() {
        return [...new Set([...Object.keys(this.original), ...this.next.keys()])].filter((p) => this.read(p) !== undefined);
    }
    changes() {
        return [...this.looked].sort().map((path) => {
            const before = this.original[path];
            const after = this.read(path);
            if (after === undefined)
                return { path, action: 'remove' };
            if (before === undefined)
                return { path, action: 'add', content: after };
            return { path, action: before === after ? 'unchanged' : 'update', content: after };
        }).filter((c) => !(c.action === 'remove' && this.original[c.path] === undefined));
    }
}
function documents(cs, path) {
    const text = cs.read(path);
    if (text === undefined || !isManifest(path))
        return undefined;
    const file = parseFile(path, text);
    return 'docs' in file ? file : undefined;
}
/** Every document of every readable manifest, with where it is. */
function everyDocument(cs) {
    const out = [];
    for (const path of cs.paths().sort()) {
        const file = documents(cs, path);
        file?.docs.forEach((doc, index) => {
            const obj = plain(doc);
            if (obj && typeof obj === 'object')
                out.push({ path, index, obj: obj });
        });
    }
    return out;
}
const isRelease = (o) => o.kind === 'HelmRelease' && typeof o.apiVersion === 'string' &&
    o.apiVersion.startsWith('helm.toolkit.fluxcd.io/');
function inNamespace(o, input) {
    const ns = input.targetNamespace ?? (typeof o.metadata?.namespace === 'string' ? o.metadata.namespace : undefined);
    return ns === undefined || ns === input.namespace;
}
/** The documents under `directory` that define HelmRelease namespace/name. */
export function locateRelease(input) {
    return everyDocument(new ChangeSet(input.files))
        .filter((d) => isUnder(d.path, input.directory) && isRelease(d.obj) && d.obj.metadata?.name === input.name
        && inNamespace(d.obj, input))
        .map(({ path, index }) => ({ path, index }));
}
function theRelease(input) {
    const hits = locateRelease(input);
    if (hits.length > 1) {
        throw conflict(`HelmRelease ${input.namespace}/${input.name} is defined more than once in ${input.where}: `
            + `${hits.map((h) => h.path).join(' and ')}; keep one definition, then retry`);
    }
    return hits[0];
}
/** create_agent in commit mode: the new agent in the layout. */
export function planCreate(input, release, source) {
    const hit = theRelease(input);
    if (hit)
        throw conflict(`HelmRelease ${input.namespace}/${input.name} is already defined in ${input.where}: `
            + `${hit.path}; use update_agent to change it`);
    const cs = new ChangeSet(input.files);
    const releasePath = addToLayout(cs, input, release, source);
    return { files: cs.changes(), releasePath };
}
/**
 * update_agent and rollback_agent in commit mode. Where git defines the release, git is the
 * base: `values` is computed from git's `spec.values` (so a change merged but not applied
 * yet is kept) and edited in place; the live values are only compared, for `drift`, never
 * copied. A GitOps-owned release (`input.ownedBy`) that git does not define is a 409: a new
 * file would be a second definition beside whatever Flux really applies. Any other release
 * git does not define is laid out (`release` composes it from the values).
 */
export function planUpdate(input, values, release, source, live) {
    const hit = theRelease(input);
    const cs = new ChangeSet(input.files);
    if (!hit) {
        if (input.ownedBy)
            throw notInGit(input);
        const proposed = typeof values === 'function' ? values(undefined) : values;
        // Laid out first, listed after: the change set is read once it holds the new files.
        const releasePath = addToLayout(cs, input, typeof release === 'function' ? release(proposed) : release, source);
        return { files: cs.changes(), releasePath, values: proposed };
    }
    const file = documents(cs, hit.path);
    const base = valuesOf(plain(file.docs[hit.index]));
    const proposed = typeof values === 'function' ? values(base) : values;
    cs.write(hit.path, withReleaseValues(file, hit.index, proposed));
    const plan = { files: cs.changes(), releasePath: hit.path, base, values: proposed };
    if (live) {
        const drift = changedPaths(base, live);
        if (drift.length > 0)
            plan.drift = drift;
    }
    return plan;
}
function valuesOf(o) {
    const values = o.spec?.values;
    return values && typeof values === 'object' && !Array.isArray(values)
        ? structuredClone(values) : {};
}
/** The 409 of a GitOps-owned release no file below its Kustomization's path defines. */
function notInGit(input) {
    return conflict(`HelmRelease ${input.namespace}/${input.name} is applied by Flux Kustomization ${input.ownedBy}, but no file below `
        + `path ${input.directory || '/'} of ${input.where} defines it; `
        + 'nothing was proposed, since a new file would be a second definition beside what Flux applies: find where the '
        + 'release is defined (another Kustomization, a generated manifest) and change it there');
}
/**
 * delete_agent in commit mode: the release's document goes; so does its chart source when
 * no other release (in the repository, or `clusterUsers` on the cluster) renders from it
 * (else `sourceKept` names them), and the layout directory when nothing is left in it.
 */
export function planDelete(input, clusterUsers) {
    const hit = theRelease(input);
    if (!hit && input.ownedBy)
        throw notInGit(input);
    if (!hit) {
        throw notFound(`HelmRelease ${input.namespace}/${input.name} is not defined in ${input.where} under `
            + `${input.directory || '/'}`);
    }
    const cs = new ChangeSet(input.files);
    const removed = plain(documents(cs, hit.path).docs[hit.index]);
    removeDocument(cs, hit);
    const live = [`kubectl delete helmreleases.helm.toolkit.fluxcd.io ${input.name} -n ${input.namespace}`];
    const ref = removed.spec?.chartRef;
    let sourceKept;
    if (ref?.kind === 'OCIRepository' && typeof ref.name === 'string') {
        const sourceNs = typeof ref.namespace === 'string' && ref.namespace ? ref.namespace : input.namespace;
        const docs = everyDocument(cs);
        const gitUsers = docs
            .filter((d) => isRelease(d.obj) && refersTo(d.obj, ref.name, sourceNs, input))
            .map((d) => String(d.obj.metadata?.name));
        const users = [...new Set([...gitUsers, ...clusterUsers])].filter((u) => u !== input.name).sort();
        if (users.length === 0) {
            const sources = docs.filter((d) => d.obj.kind === 'OCIRepository' && d.obj.metadata?.name === ref.name && inNamespaceOf(d.obj, sourceNs, input));
            for (const source of sources.reverse())
                removeDocument(cs, source);
            if (sources.length > 0) {
                live.push(`kubectl delete ocirepositories.source.toolkit.fluxcd.io ${ref.name} -n ${sourceNs}`);
            }
        }
        else {
            sourceKept = `still referenced by ${users.length} other HelmRelease(s): ${users.join(', ')}`;
        }
    }
    else {
        sourceKept = 'the HelmRelease does not render from an OCIRepository';
    }
    const plan = { files: cs.changes(), releasePath: hit.path };
    if (sourceKept)
        plan.sourceKept = sourceKept;
    if (input.prune !== true)
        plan.liveSteps = live;
    return plan;
}
function refersTo(o, name, namespace, input) {
    const ref = o.spec?.chartRef;
    const ns = typeof ref?.namespace === 'string' && ref.namespace ? ref.namespace
        : (input.targetNamespace ?? o.metadata?.namespace ?? input.namespace);
    return ref?.kind === 'OCIRepository' && ref.name === name && ns === namespace;
}
const inNamespaceOf = (o, namespace, input) => (input.targetNamespace ?? (typeof o.metadata?.namespace === 'string' ? o.metadata.namespace
    : namespace)) === namespace;
/** Removes one document; an emptied file goes, with its entry in the directory's kustomization. */
function removeDocument(cs, hit) {
    const file = documents(cs, hit.path);
    const text = replaceDocument(file, hit.index, undefined);
    if (!isEmptyStream(text)) {
        cs.write(hit.path, text);
        return;
    }
    cs.write(hit.path, null);
    const dir = dirOf(hit.path);
    const kustomization = kustomizationIn(cs, dir);
    if (!kustomization)
        return;
    const after = removeResource(cs.read(kustomization), baseOf(hit.path));
    const leftovers = cs.paths().filter((p) => dirOf(p) === dir && p !== kustomization);
    if (baseOf(dir) === LAYOUT_DIRECTORY && resourcesOf(after).length === 0 && leftovers.length === 0) {
        // The layout directory is empty now: it goes, and so does the parent's entry for it.
        cs.write(kustomization, null);
        const parent = kustomizationIn(cs, dirOf(dir));
        if (parent)
            cs.write(parent, removeResource(cs.read(parent), LAYOUT_DIRECTORY));
        return;
    }
    cs.write(kustomization, after);
}
function kustomizationIn(cs, dir) {
    return KUSTOMIZATION_FILES.map((f) => joinPath(dir, f)).find((p) => cs.read(p) !== undefined);
}
/** Lays a release (and, when the tree has none, its chart source) out below the directory. */
function addToLayout(cs, input, release, source) {
    const dir = joinPath(input.directory, LAYOUT_DIRECTORY);
    const releaseFile = `${input.name}.yaml` === SOURCE_FILE ? `${input.name}-helmrelease.yaml` : `${input.name}.yaml`;
    const releasePath = joinPath(dir, releaseFile);
    if (cs.read(releasePath) !== undefined) {
        throw conflict(`${releasePath} already exists in ${input.where} and does not define HelmRelease `
            + `${input.namespace}/${input.name}; rename or remove it, then retry`);
    }
    cs.write(releasePath, toYaml(release));
    const entries = [releaseFile];
    const sourceName = source.metadata.name;
    const haveSource = everyDocument(cs).some((d) => d.obj.kind === 'OCIRepository' && d.obj.metadata?.name === sourceName &&
        inNamespaceOf(d.obj, input.namespace, input));
    if (!haveSource) {
        const sourcePath = joinPath(dir, SOURCE_FILE);
        const existing = cs.read(sourcePath);
        cs.write(sourcePath, existing === undefined ? toYaml(source)
            : `${existing.replace(/\n*$/, '\n')}---\n${toYaml(source)}`);
        entries.unshift(SOURCE_FILE);
    }
    const kustomization = kustomizationIn(cs, dir);
    if (kustomization) {
        cs.write(kustomization, entries.reduce((text, e) => addResource(text, e), cs.read(kustomization)));
    }
    else
        cs.write(joinPath(dir, 'kustomization.yaml'), newKustomization(entries));
    const parent = kustomizationIn(cs, input.directory);
    if (parent) {
        cs.write(parent, addResource(cs.read(parent), LAYOUT_DIRECTORY));
    }
    else if (!cs.paths().some((p) => dirOf(p) === input.directory && isManifest(p))) {
        // An empty directory gets a kustomization of its own; one with manifests but none is
        // left to Flux, which generates one that includes the new directory.
        cs.write(joinPath(input.directory, 'kustomization.yaml'), newKustomization([LAYOUT_DIRECTORY]));
    }
    return releasePath;
}
//# sourceMappingURL=gitops-plan.js.map