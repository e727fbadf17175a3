/**
 * What the read cache needs from the Kubernetes API, declared here by the cache (its
 * consumer): list and watch one resource type in one namespace, and a caller's
 * SelfSubjectAccessReview. client-node adapters implement them (list-watch.ts,
 * access-review.ts); unit tests fake them.
 */
import type { RequestContext } from '../../identity/caller.js';
import type { Gvr, KubeObject } from '../../service/ports.js';

/** Which objects of a type and namespace a store holds. */
export interface Selectors {
  /** Only objects matching this label selector (e.g. `kagent`: pods that carry the label). */
  labelSelector?: string;
  /** Only objects matching this field selector (e.g. `type=Warning` for events). */
  fieldSelector?: string;
}

/** What one store lists and watches. */
export interface FeedSpec extends Selectors {
  gvr: Gvr;
  namespace: string;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';

/** A running watch; `stop` ends it without calling `onEnd` with an error. */
export interface WatchHandle {
  stop(): void;
}

export interface WatchHandlers {
  onEvent(type: WatchEventType, object: KubeObject): void;
  /** Called once when the stream ends: without an error for a normal end (timeout, stop). */
  onEnd(err?: unknown): void;
}

/** The list and watch calls of the stores. */
export interface ListWatchSource {
  list(gvr: Gvr, namespace: string, selectors: Selectors): Promise<{ items: KubeObject[]; resourceVersion: string }>;
  watch(
    gvr: Gvr, namespace: string, selectors: Selectors, resourceVersion: string, handlers: WatchHandlers,
  ): Promise<WatchHandle>;
}

/** The resource attributes of one read, as a SelfSubjectAccessReview asks about them. */
export interface ReadAttributes {
  verb: 'get' | 'list';
  group: string;
  resource: string;
  namespace: string;
}

/** One identity's SelfSubjectAccessReview. */
export interface AccessReviewer {
  mayRead(attributes: ReadAttributes): Promise<boolean>;
}

/** Whether the request's caller may make this read; rejects when that cannot be told. */
export type ReadAuthorizer = (ctx: RequestContext, attributes: ReadAttributes) => Promise<boolean>;
