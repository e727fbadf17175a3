/**
 * The kustomize patches that change a HelmRelease, in the kustomization files below the directory Flux
 * builds: `patches` (with a `target`, or naming their object), `patchesStrategicMerge` and
 * `patchesJson6902`. Flux applies the document with its patches over it, so an edit of the document
 * may not be what is applied where a patch sets the same values; commit mode edits documents, not
 * patches, and refuses a release a patch targets rather than propose a change it would override.
 */
import { parseAllDocuments } from 'yaml';
import { asList, isJsonObject } from '../json.js';
import { baseOf, dirOf, isUnder, joinPath, KUSTOMIZATION_FILES } from './repo-paths.js';

/** Where a patch of the release is: the kustomization file, or the patch file it names. */
export interface ReleasePatch { kustomization: string; patchFile?: string }

/** The patches below `directory` that target HelmRelease `name`. */
export function releasePatches(
  files: Readonly<Record<string, string>>, directory: string, name: string,
): ReleasePatch[] {
  const found: ReleasePatch[] = [];
  for (const [path, text] of Object.entries(files)) {
    if (!isUnder(path, directory) || !KUSTOMIZATION_FILES.includes(baseOf(path))) continue;
    const kustomization = firstDocument(text);
    if (!isJsonObject(kustomization)) continue;
    const entries = [
      ...asList(kustomization.patches), ...asList(kustomization.patchesStrategicMerge),
      ...asList(kustomization.patchesJson6902),
    ];
    for (const entry of entries) {
      const hit = patchOf(files, dirOf(path), entry, name);
      if (hit !== undefined) found.push({ kustomization: path, ...(hit ? { patchFile: hit } : {}) });
    }
  }
  return found;
}

/** The patch file (or '' for an inline patch) when `entry` patches HelmRelease `name`; undefined when not. */
function patchOf(
  files: Readonly<Record<string, string>>, dir: string, entry: unknown, name: string,
): string | undefined {
  if (isJsonObject(entry) && isJsonObject(entry.target)) {
    const { kind, name: wanted } = entry.target;
    const kindMatches = kind === undefined || kind === 'HelmRelease';
    // A target's name is a regular expression kustomize anchors at both ends.
    const nameMatches = wanted === undefined || (typeof wanted === 'string' && anchored(wanted, name));
    if (!kindMatches || !nameMatches) return undefined;
    return typeof entry.path === 'string' ? joinPath(dir, entry.path) : '';
  }
  // Without a target the patch names its object: a file, or the patch text itself.
  const file = typeof entry === 'string' && !entry.includes('\n') ? entry
    : isJsonObject(entry) ? entry.path : undefined;
  if (typeof file === 'string') {
    const at = joinPath(dir, file);
    return namesRelease(files[at], name) ? at : undefined;
  }
  const inline = typeof entry === 'string' ? entry : isJsonObject(entry) ? entry.patch : undefined;
  return typeof inline === 'string' && namesRelease(inline, name) ? '' : undefined;
}

function anchored(pattern: string, name: string): boolean {
  try {
    return new RegExp(`^(?:${pattern})$`).test(name);
  } catch {
    return pattern === name;
  }
}

function namesRelease(text: string | undefined, name: string): boolean {
  if (text === undefined) return false;
  return allDocuments(text)
    .some((d) => isJsonObject(d) && d.kind === 'HelmRelease' && isJsonObject(d.metadata) && d.metadata.name === name);
}

function allDocuments(text: string): unknown[] {
  try {
    return parseAllDocuments(text, { version: '1.1' }).flatMap((d) => ('toJS' in d ? [d.toJS()] : []));
  } catch {
    return [];
  }
}

const firstDocument = (text: string): unknown => allDocuments(text)[0];
