/**
 * The `resources` list of a kustomization file, edited in place (comments and the other
 * fields kept), and the file agent-manager writes for a directory it creates.
 */
import { isScalar, isSeq } from 'yaml';
import { parseFile, type YamlDocument } from './manifest-yaml.js';
import { asObject } from '../json.js';
import { sameEntry } from './repo-paths.js';
import { toYaml } from '../yaml.js';

/** A new kustomization.yaml listing `resources`. */
export function newKustomization(resources: string[]): string {
  return toYaml({ apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources });
}

/** The entries of `resources` (empty when absent or unreadable). */
export function resourcesOf(text: string): string[] {
  const file = parseFile('kustomization.yaml', text);
  if (!('docs' in file)) return [];
  const list = asObject(file.docs[0]?.toJS()).resources;
  return Array.isArray(list) ? list.filter((e): e is string => typeof e === 'string') : [];
}

function edit(text: string, change: (doc: YamlDocument) => boolean): string {
  const file = parseFile('kustomization.yaml', text);
  const doc = 'docs' in file ? file.docs[0] : undefined;
  if (!doc || !change(doc)) return text;
  return String(doc);
}

/** The text with `entry` appended to `resources` (unchanged when already listed). */
export function addResource(text: string, entry: string): string {
  return edit(text, (doc) => {
    const list = doc.get('resources', true);
    if (isSeq(list)) {
      if (list.items.some((item) => isScalar(item) && typeof item.value === 'string' && sameEntry(item.value, entry))) {
        return false;
      }
      list.items.push(doc.createNode(entry));
    } else {
      doc.set('resources', doc.createNode([entry]));
    }
    return true;
  });
}

/** The text without `entry` in `resources` (unchanged when not listed). */
export function removeResource(text: string, entry: string): string {
  return edit(text, (doc) => {
    const list = doc.get('resources', true);
    if (!isSeq(list)) return false;
    const index = list.items.findIndex((item) =>
      isScalar(item) && typeof item.value === 'string' && sameEntry(item.value, entry));
    if (index < 0) return false;
    list.items.splice(index, 1);
    return true;
  });
}
