/**
 * Commit mode's decisions, pure functions over a GitOps repository's manifest files: where a
 * HelmRelease is defined, how its `spec.values` change in place, where a new agent is laid out
 * (`<directory>/agent-manager/`, docs/gitops.md "Where the change goes") and what a delete removes.
 * The objects written are the ones apply mode composes (core/writes/compose.ts), so `kubectl kustomize`
 * renders exactly what apply mode would have applied. The service reads and writes; nothing here does I/O.
 */
import type { ComposedObject } from '../writes/compose.js';
import { changedPaths, jsonEqual } from '../diff.js';
import { conflict, notFound, type AppError } from '../errors.js';
import { releasePatches, type ReleasePatch } from './patches.js';
import { addResource, newKustomization, removeResource, resourcesOf } from './kustomization.js';
import { baseOf, dirOf, isManifest, isUnder, joinPath, KUSTOMIZATION_FILES } from './repo-paths.js';
import {
  documentAt, isEmptyStream, parseFile, plain, replaceDocument, withReleaseValues, type ParsedFile, type YamlDocument,
} from './manifest-yaml.js';
import { asObject, isJsonObject, optionalString, type JsonObject } from '../json.js';
import { toYaml } from '../yaml.js';

export type FileAction = 'add' | 'update' | 'remove' | 'unchanged';

export interface FileChange {
  path: string;
  action: FileAction;
  /** The new content (absent for a removed file). */
  content?: string;
}

export interface PlanInput {
  /** Manifest files (path from the repository root → text) of the tree below `directory`. */
  files: Record<string, string>;
  /** The directory the Kustomization applies (or the caller names), canonical form. */
  directory: string;
  namespace: string;
  name: string;
  /** The Kustomization's `spec.targetNamespace`: every object it applies lands there. */
  targetNamespace?: string;
  /** The Kustomization's `spec.prune`; undefined when no Kustomization is known. */
  prune?: boolean;
  /** `owner/name@branch`, for the texts. */
  where: string;
  /**
   * `namespace/name` of the Flux Kustomization that applied the live release, when it is
   * GitOps-owned: then git must define it below `directory`.
   */
  ownedBy?: string;
}

export interface CommitPlan {
  files: FileChange[];
  /** The file that defines (or defined) the release. */
  releasePath: string;
  /** What to delete from the cluster by hand when Flux will not prune it. */
  liveSteps?: string[];
  /** A delete's: why the chart source stays (which releases, in git or on the cluster, still render from it). */
  sourceKept?: string;
  /** Value paths where the live release differs from git (an update's plan, when git defines the release). */
  drift?: string[];
}

/** The directory agent-manager lays new agents out in, below the Kustomization's path. */
export const LAYOUT_DIRECTORY = 'agent-manager';
const SOURCE_FILE = 'agent.yaml';

interface Hit {
  path: string;
  index: number;
}

/** A manifest document as the plan reads it: kind, API version, metadata and spec (an absent one empty). */
interface Obj {
  kind: unknown;
  apiVersion: unknown;
  metadata: JsonObject;
  spec: JsonObject;
}

/** The view of a document, parsed once; undefined for one that is no object (empty, a list, a scalar). */
function objOf(document: unknown): Obj | undefined {
  if (!isJsonObject(document)) return undefined;
  const { kind, apiVersion, metadata, spec } = document;
  return { kind, apiVersion, metadata: asObject(metadata), spec: asObject(spec) };
}

/** The document's `metadata.namespace` when it is a string, kept as written (even empty). */
const namespaceOf = (o: Obj): string | undefined =>
  typeof o.metadata.namespace === 'string' ? o.metadata.namespace : undefined;

/** The file a hit located and its document; the hit was found in this change set, so both are there. */
function located(cs: ChangeSet, hit: Hit): { file: ParsedFile; document: YamlDocument } {
  const file = documents(cs, hit.path);
  if (!file) throw new Error(`${hit.path} is no longer readable`);
  return { file, document: documentAt(file, hit.index) };
}

/** Pending edits over the snapshot, and the files looked at without a change. */
class ChangeSet {
  private readonly next = new Map<string, string | null>();
  private readonly looked = new Set<string>();

  constructor(private readonly original: Record<string, string>) {}

  read(path: string): string | undefined {
    if (this.next.has(path)) return this.next.get(path) ?? undefined;
    return this.original[path];
  }

  write(path: string, content: string | null): void {
    if (content === this.original[path]) this.next.delete(path);
    else this.next.set(path, content);
    this.looked.add(path);
  }

  paths(): string[] {
    return [...new Set([...Object.keys(this.original), ...this.next.keys()])].filter((p) => this.read(p) !== undefined);
  }

  changes(): FileChange[] {
    return [...this.looked].sort().map((path): FileChange => {
      const before = this.original[path];
      const after = this.read(path);
      if (after === undefined) return { path, action: 'remove' };
      if (before === undefined) return { path, action: 'add', content: after };
      return { path, action: before === after ? 'unchanged' : 'update', content: after };
    }).filter((c) => !(c.action === 'remove' && this.original[c.path] === undefined));
  }
}

function documents(cs: ChangeSet, path: string): ParsedFile | undefined {
  const text = cs.read(path);
  if (text === undefined || !isManifest(path)) return undefined;
  const file = parseFile(path, text);
  return 'docs' in file ? file : undefined;
}

/** Every document of every readable manifest, with where it is. */
function everyDocument(cs: ChangeSet): Array<Hit & { obj: Obj }> {
  const out: Array<Hit & { obj: Obj }> = [];
  for (const path of cs.paths().sort()) {
    const file = documents(cs, path);
    file?.docs.forEach((doc, index) => {
      const obj = objOf(plain(doc));
      if (obj) out.push({ path, index, obj });
    });
  }
  return out;
}

const isRelease = (o: Obj) => o.kind === 'HelmRelease' && typeof o.apiVersion === 'string' &&
  o.apiVersion.startsWith('helm.toolkit.fluxcd.io/');

function inNamespace(o: Obj, input: PlanInput): boolean {
  const ns = input.targetNamespace ?? namespaceOf(o);
  return ns === undefined || ns === input.namespace;
}

/** The documents under `directory` that define HelmRelease namespace/name. */
export function locateRelease(input: PlanInput): Hit[] {
  // A file a kustomization applies as a patch of the release is not a definition of it.
  const patchFiles = new Set(patchesOf(input).map((p) => p.patchFile));
  return everyDocument(new ChangeSet(input.files))
    .filter((d) => isUnder(d.path, input.directory) && isRelease(d.obj) && d.obj.metadata.name === input.name
      && inNamespace(d.obj, input) && !patchFiles.has(d.path))
    .map(({ path, index }) => ({ path, index }));
}

// The patches of a plan's release, read once per plan input (locating the release and refusing it both ask).
const patchesByInput = new WeakMap<PlanInput, ReleasePatch[]>();
function patchesOf(input: PlanInput): ReleasePatch[] {
  let patches = patchesByInput.get(input);
  if (!patches) {
    patches = releasePatches(input.files, input.directory, input.name);
    patchesByInput.set(input, patches);
  }
  return patches;
}

/** The 409 of a release a kustomize patch changes: an edit of its document may not be what Flux applies. */
function patchedRelease(input: PlanInput, hit: Hit): AppError | undefined {
  const patches = patchesOf(input);
  if (patches.length === 0) return undefined;
  const where = [...new Set(patches.map((p) => p.patchFile || p.kustomization))].join(', ');
  return conflict(`HelmRelease ${input.namespace}/${input.name} in ${input.where} is changed by a kustomize patch ` +
    `(${where}): agent-manager would edit ${hit.path}, and the patch applied over it may set the same values, so ` +
    'the pull request would not be what Flux applies; change the values in the patch by hand, or fold the patch ' +
    'into the document, then retry');
}

function theRelease(input: PlanInput): Hit | undefined {
  const hits = locateRelease(input);
  if (hits.length > 1) {
    throw conflict(`HelmRelease ${input.namespace}/${input.name} is defined more than once in ${input.where}: `
      + `${hits.map((h) => h.path).join(' and ')}; keep one definition, then retry`);
  }
  return hits[0];
}

/** create_agent in commit mode: the new agent in the layout. */
export function planCreate(input: PlanInput, release: ComposedObject, source: ComposedObject): CommitPlan {
  const hit = theRelease(input);
  if (hit) throw conflict(`HelmRelease ${input.namespace}/${input.name} is already defined in ${input.where}: `
    + `${hit.path}; use update_agent to change it`);
  const cs = new ChangeSet(input.files);
  const releasePath = addToLayout(cs, input, release, source);
  return { files: cs.changes(), releasePath };
}

/** The values to propose, given git's (undefined when git does not define the release). */
export type ValuesFor =
  Record<string, unknown> | ((base: Record<string, unknown> | undefined) => Record<string, unknown>);

/** An update's plan, with the values it was based on and proposes. */
export interface UpdatePlan extends CommitPlan {
  /** `spec.values` as git defines them; undefined when git did not define the release. */
  base?: Record<string, unknown>;
  /** The values proposed. */
  values: Record<string, unknown>;
}

/**
 * update_agent and rollback_agent in commit mode. Where git defines the release, git is the
 * base: `values` is computed from git's `spec.values` (so a change merged but not applied
 * yet is kept) and edited in place; the live values are only compared, for `drift`, never
 * copied. A GitOps-owned release (`input.ownedBy`) that git does not define is a 409: a new
 * file would be a second definition beside whatever Flux really applies. Any other release
 * git does not define is laid out (`release` composes it from the values).
 */
export function planUpdate(
  input: PlanInput, values: ValuesFor, release: ComposedObject | ((values: Record<string, unknown>) => ComposedObject),
  source: ComposedObject, live?: Record<string, unknown>,
): UpdatePlan {
  const hit = theRelease(input);
  const cs = new ChangeSet(input.files);
  if (!hit) {
    if (input.ownedBy) throw notInGit(input);
    const proposed = typeof values === 'function' ? values(undefined) : values;
    // Laid out first, listed after: the change set is read once it holds the new files.
    const releasePath = addToLayout(cs, input, typeof release === 'function' ? release(proposed) : release, source);
    return { files: cs.changes(), releasePath, values: proposed };
  }
  const patched = patchedRelease(input, hit);
  if (patched) throw patched;
  const { file, document } = located(cs, hit);
  const base = valuesOf(objOf(plain(document)));
  const proposed = typeof values === 'function' ? values(base) : values;
  // Git already carrying the values is no change: the file keeps its bytes (a re-render could still
  // differ in layout, and a pull request of layout alone would propose nothing the caller asked for).
  cs.write(hit.path, jsonEqual(base, proposed) ? file.text : withReleaseValues(file, hit.index, proposed));
  const plan: UpdatePlan = { files: cs.changes(), releasePath: hit.path, base, values: proposed };
  if (live) {
    const drift = changedPaths(base, live);
    if (drift.length > 0) plan.drift = drift;
  }
  return plan;
}

function valuesOf(o: Obj | undefined): Record<string, unknown> {
  const values = o?.spec.values;
  return isJsonObject(values) ? structuredClone(values) : {};
}

/** The 409 of a GitOps-owned release no file below its Kustomization's path defines. */
function notInGit(input: PlanInput) {
  return conflict(
    `HelmRelease ${input.namespace}/${input.name} is applied by Flux Kustomization ${input.ownedBy}, but no file below `
    + `path ${input.directory || '/'} of ${input.where} defines it; `
    + 'nothing was proposed, since a new file would be a second definition beside what Flux applies: find where the '
    + 'release is defined (another Kustomization, a generated manifest) and change it there',
  );
}

/**
 * delete_agent in commit mode: the release's document goes; so does its chart source when
 * no other release (in the repository, or `clusterUsers` on the cluster) renders from it
 * (else `sourceKept` names them), and the layout directory when nothing is left in it.
 */
export function planDelete(input: PlanInput, clusterUsers: string[]): CommitPlan {
  const hit = theRelease(input);
  if (!hit && input.ownedBy) throw notInGit(input);
  if (!hit) {
    throw notFound(`HelmRelease ${input.namespace}/${input.name} is not defined in ${input.where} under `
      + `${input.directory || '/'}`);
  }
  const cs = new ChangeSet(input.files);
  const removed = objOf(plain(located(cs, hit).document));
  removeDocument(cs, hit);
  const live = [`kubectl delete helmreleases.helm.toolkit.fluxcd.io ${input.name} -n ${input.namespace}`];
  const ref = asObject(removed?.spec.chartRef);
  const sourceName = ref.name;
  let sourceKept: string | undefined;
  if (ref.kind === 'OCIRepository' && typeof sourceName === 'string') {
    const sourceNs = optionalString(ref.namespace) ?? input.namespace;
    const docs = everyDocument(cs);
    const gitUsers = docs
      .filter((d) => isRelease(d.obj) && refersTo(d.obj, sourceName, sourceNs, input))
      .map((d) => String(d.obj.metadata.name));
    const users = [...new Set([...gitUsers, ...clusterUsers])].filter((u) => u !== input.name).sort();
    if (users.length === 0) {
      const sources = docs.filter((d) =>
        d.obj.kind === 'OCIRepository' && d.obj.metadata.name === sourceName && inNamespaceOf(d.obj, sourceNs, input));
      for (const source of sources.reverse()) removeDocument(cs, source);
      if (sources.length > 0) {
        live.push(`kubectl delete ocirepositories.source.toolkit.fluxcd.io ${sourceName} -n ${sourceNs}`);
      }
    } else {
      sourceKept = `still referenced by ${users.length} other HelmRelease(s): ${users.join(', ')}`;
    }
  } else {
    sourceKept = 'the HelmRelease does not render from an OCIRepository';
  }
  const plan: CommitPlan = { files: cs.changes(), releasePath: hit.path };
  if (sourceKept) plan.sourceKept = sourceKept;
  if (input.prune !== true) plan.liveSteps = live;
  return plan;
}

function refersTo(o: Obj, name: string, namespace: string, input: PlanInput): boolean {
  const ref = asObject(o.spec.chartRef);
  const ns = optionalString(ref.namespace) ?? input.targetNamespace ?? o.metadata.namespace ?? input.namespace;
  return ref.kind === 'OCIRepository' && ref.name === name && ns === namespace;
}

const inNamespaceOf = (o: Obj, namespace: string, input: PlanInput) =>
  (input.targetNamespace ?? namespaceOf(o) ?? namespace) === namespace;

/** Removes one document; an emptied file goes, with its entry in the directory's kustomization. */
function removeDocument(cs: ChangeSet, hit: Hit): void {
  const { file } = located(cs, hit);
  const text = replaceDocument(file, hit.index, undefined);
  if (!isEmptyStream(text)) {
    cs.write(hit.path, text);
    return;
  }
  cs.write(hit.path, null);
  const dir = dirOf(hit.path);
  const kustomization = kustomizationIn(cs, dir);
  if (!kustomization) return;
  const after = removeResource(kustomization.text, baseOf(hit.path));
  const leftovers = cs.paths().filter((p) => dirOf(p) === dir && p !== kustomization.path);
  if (baseOf(dir) === LAYOUT_DIRECTORY && resourcesOf(after).length === 0 && leftovers.length === 0) {
    // The layout directory is empty now: it goes, and so does the parent's entry for it.
    cs.write(kustomization.path, null);
    const parent = kustomizationIn(cs, dirOf(dir));
    if (parent) cs.write(parent.path, removeResource(parent.text, LAYOUT_DIRECTORY));
    return;
  }
  cs.write(kustomization.path, after);
}

/** The kustomization file of `dir` and its text, when it has one. */
function kustomizationIn(cs: ChangeSet, dir: string): { path: string; text: string } | undefined {
  for (const path of KUSTOMIZATION_FILES.map((f) => joinPath(dir, f))) {
    const text = cs.read(path);
    if (text !== undefined) return { path, text };
  }
  return undefined;
}

/** Lays a release (and, when the tree has none, its chart source) out below the directory. */
function addToLayout(cs: ChangeSet, input: PlanInput, release: ComposedObject, source: ComposedObject): string {
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
  const haveSource = everyDocument(cs).some((d) =>
    d.obj.kind === 'OCIRepository' && d.obj.metadata.name === sourceName &&
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
    cs.write(kustomization.path, entries.reduce((text, e) => addResource(text, e), kustomization.text));
  } else cs.write(joinPath(dir, 'kustomization.yaml'), newKustomization(entries));
  const parent = kustomizationIn(cs, input.directory);
  if (parent) {
    cs.write(parent.path, addResource(parent.text, LAYOUT_DIRECTORY));
  } else if (!cs.paths().some((p) => dirOf(p) === input.directory && isManifest(p))) {
    // An empty directory gets a kustomization of its own; one with manifests but none is
    // left to Flux, which generates one that includes the new directory.
    cs.write(joinPath(input.directory, 'kustomization.yaml'), newKustomization([LAYOUT_DIRECTORY]));
  }
  return releasePath;
}
