/**
 * An `apps/v1` ControllerRevision as the revision records read it: its number, its `data` and the HelmRelease that
 * owns it. Only the envelope is narrowed here; what `data` must hold is the revision schema's to judge
 * (core/revisions/revision-schema.ts), because anyone who may write revisions can edit one. Pure.
 */
import { asObject, wholeNumber, type JsonObject } from '../json.js';
import { parseMeta, type MetaView } from './object-meta.js';

export interface ControllerRevisionView {
  meta: MetaView;
  /** `revision` when it is a whole number. */
  revision?: number;
  /** `data` when it is an object, else {}. */
  data: JsonObject;
  /** The uid of the HelmRelease that owns the revision (its first owner of that kind; empty reads as absent). */
  ownerUid?: string;
}

/** `object` (any JSON) read as a ControllerRevision. */
export function parseControllerRevision(object: unknown): ControllerRevisionView {
  const raw = asObject(object);
  const meta = parseMeta(object);
  const view: ControllerRevisionView = { meta, data: asObject(raw.data) };
  const revision = wholeNumber(raw.revision);
  const ownerUid = meta.ownerReferences.find((o) => o.kind === 'HelmRelease')?.uid;
  if (revision !== undefined) view.revision = revision;
  if (ownerUid) view.ownerUid = ownerUid;
  return view;
}
