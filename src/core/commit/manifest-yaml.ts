/**
 * Editing manifests in a GitOps repository without rewriting them: one YAML document is changed node by
 * node and only its text replaced, so other documents keep their bytes and comments, key order and
 * quoting survive. Files are read as YAML 1.1, as kustomize and Flux read them, so a value means in git
 * what it means on the cluster (`on` stays a string).
 */
import { Document, isMap, isNode, isScalar, isSeq, parseAllDocuments, type ParsedNode } from 'yaml';
import { isJsonObject } from '../json.js';

export type YamlDocument = Document.Parsed<ParsedNode>;

export interface ParsedFile {
  path: string;
  text: string;
  docs: YamlDocument[];
}

/** A manifest file's documents; a document with errors makes the whole file unreadable. */
export function parseFile(path: string, text: string): ParsedFile | { path: string; error: string } {
  const docs = parseAllDocuments(text, { version: '1.1', prettyErrors: false });
  if (!Array.isArray(docs)) return { path, error: 'not a YAML stream' };
  // The first error of the first document that has one.
  const [error] = docs.flatMap((d) => d.errors);
  if (error) return { path, error: error.message.split('\n')[0] ?? error.message };
  return { path, text, docs };
}

/** Document `index` of the file: callers name one they found in it, so a missing one is a bug, not input. */
export function documentAt(file: ParsedFile, index: number): YamlDocument {
  const doc = file.docs[index];
  if (!doc) throw new Error(`${file.path} has no document ${index}`);
  return doc;
}

/** A plain object of a document (null for an empty one). */
export function plain(doc: YamlDocument): unknown {
  const value: unknown = doc.toJS({ maxAliasCount: 100 });
  return value;
}

/** The file with document `index` replaced by its edited form, or removed (`undefined`). */
/**
 * How edited YAML is written: no line folding, and flow collections as Kubernetes manifests write
 * them (`{name: ops}`, `[a, b]`), so a sibling of an edited value keeps its bytes.
 */
const RENDER = { lineWidth: 0, flowCollectionPadding: false } as const;

export function replaceDocument(file: ParsedFile, index: number, edited: YamlDocument | undefined): string {
  const start = index === 0 ? 0 : documentAt(file, index - 1).range[2];
  const end = documentAt(file, index).range[2];
  let middle = edited ? edited.toString(RENDER) : '';
  if (edited && index > 0 && !middle.startsWith('---')) middle = `---\n${middle}`;
  if (!edited && index === 0 && file.docs.length > 1) {
    // The next document's separator now starts the file; drop it so no empty document remains.
    const rest = file.text.slice(end).replace(/^---[ \t]*\n/, '');
    return rest;
  }
  return file.text.slice(0, start) + middle + file.text.slice(end);
}

/** True when no document of the text has content (only comments or nothing). */
export function isEmptyStream(text: string): boolean {
  const docs = parseAllDocuments(text, { version: '1.1' });
  return !Array.isArray(docs) || docs.every((d) => d.contents === null || plain(d) === null);
}

/**
 * Makes `node` hold `value`, changing as little as possible: map entries are kept,
 * updated in place, removed or appended (new keys after the existing ones); sequence
 * items are synced by position; a scalar keeps its node (comment and quoting) when it
 * already holds the value or gets one of the same type, and a replaced node hands its
 * comments to the new one. Returns the node to store (itself when kept).
 */
export function syncNode(doc: Document, node: unknown, value: unknown): unknown {
  if (isMap(node) && isJsonObject(value)) {
    for (const pair of [...node.items]) {
      const key = isScalar(pair.key) ? pair.key.value : pair.key;
      if (typeof key !== 'string' || !(key in value)) node.items.splice(node.items.indexOf(pair), 1);
    }
    for (const [key, next] of Object.entries(value)) {
      const pair = node.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === key);
      if (pair) pair.value = syncNode(doc, pair.value, next);
      else node.items.push(doc.createPair(key, next));
    }
    return node;
  }
  if (isSeq(node) && Array.isArray(value)) {
    node.items.length = Math.min(node.items.length, value.length);
    value.forEach((item, i) => {
      node.items[i] =
        i < node.items.length ? syncNode(doc, node.items[i], item) : doc.createNode(item);
    });
    return node;
  }
  if (isScalar(node) && (value === null || typeof value !== 'object')) {
    if (node.value === value) return node;
    // A replaced value of the same type keeps its line's comment and quoting style.
    if (typeof node.value === typeof value && node.value !== null) {
      node.value = value;
      return node;
    }
  }
  const created = doc.createNode(value);
  if (isNode(node) && isNode(created)) {
    // A value of another shape still keeps the comments of the line it replaces.
    if (node.comment) created.comment = node.comment;
    if (node.commentBefore) created.commentBefore = node.commentBefore;
  }
  return created;
}

/**
 * The file with `spec.values` of document `index` set to `values`. When the values are a
 * block map already, only that map's text is replaced (re-rendered at its indentation),
 * so everything else in the file keeps its bytes; otherwise the document is re-rendered.
 */
export function withReleaseValues(file: ParsedFile, index: number, values: Record<string, unknown>): string {
  const doc = documentAt(file, index);
  const spec = doc.getIn(['spec'], true);
  const current = isMap(spec) ? spec.get('values', true) : undefined;
  if (isMap(current) && !current.flow && current.range && current.items.length > 0) {
    const [start, end] = current.range;
    syncNode(doc, current, values);
    if (current.items.length > 0) {
      const column = start - (file.text.lastIndexOf('\n', start - 1) + 1);
      const comment = current.commentBefore;
      current.commentBefore = undefined;
      let text = new Document(current, { version: '1.1' }).toString(RENDER);
      current.commentBefore = comment;
      const pad = ' '.repeat(column);
      text = text.replace(/\n(?=.)/g, `\n${pad}`);
      if (!file.text.slice(start, end).endsWith('\n')) text = text.replace(/\n$/, '');
      return file.text.slice(0, start) + text + file.text.slice(end);
    }
  }
  if (isMap(spec)) spec.set('values', current === undefined ? doc.createNode(values) : syncNode(doc, current, values));
  else doc.setIn(['spec', 'values'], values);
  return replaceDocument(file, index, doc);
}
