/**
 * The vocabulary of sandbox operations, shared by the HTTP handlers and in-process
 * callers (tests, simulated controllers): who is calling, the options of writes, lists,
 * deletes and watches, and the patch types. Mirrors the query parameters of the real API.
 */
import type { JsonObject } from '../api/json.js';
import type { ObjectStore } from '../store/object-store.js';
import type { ResourceRegistry } from '../resources/registry.js';

/** An authenticated caller, as kube-apiserver's user.Info. */
export interface UserInfo {
  readonly username: string;
  readonly groups: readonly string[];
  readonly uid?: string;
  /** Extra attributes (an impersonated user's `Impersonate-Extra-*` values). */
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/** `fieldValidation`: what happens to unknown fields. The server default is Warn. */
export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

/** Options of create, update, patch and apply. */
export interface WriteOptions {
  /** `dryRun=All`: run everything, store nothing. */
  dryRun?: boolean;
  /** Manager recorded in managedFields; required for apply. Default: the User-Agent product. */
  fieldManager?: string;
  fieldValidation?: FieldValidation;
  userAgent?: string;
  /** Collects warnings for the client (`unknown field "spec.x"`); filled by the operation. */
  warnings?: string[];
}

/** Options of list. */
export interface ListOptions {
  /** Empty or absent: every namespace. */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  /** List: the state asked for (`""`/`"0"`: any; otherwise not older than, or exactly, this). */
  resourceVersion?: string;
  /** List: `NotOlderThan` (the default for a set resourceVersion) or `Exact`. */
  resourceVersionMatch?: string;
}

/** A page of objects (frozen snapshots). */
export interface ListResult {
  items: JsonObject[];
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
}

/** Options of delete (DeleteOptions plus query parameters). */
export interface DeleteOptions extends WriteOptions {
  preconditions?: { uid?: string; resourceVersion?: string };
  /** Orphan, Background (the default) or Foreground: how the garbage collector treats the dependents. */
  propagationPolicy?: string;
  gracePeriodSeconds?: number;
}

/** The patch content types. */
export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

/** Content-Type of each patch type. */
export const PATCH_CONTENT_TYPES: Record<PatchType, string> = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

/** What operations work on. */
export interface OpsEnv {
  readonly registry: ResourceRegistry;
  readonly objects: ObjectStore;
}
