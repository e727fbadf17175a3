// A project in miniature for kube-access.ts: ports as the later features add them
// (watches, ControllerRevisions, a read cache, an access review).
export interface Gvr {
  group: string;
  version: string;
  resource: string;
  kind: string;
}

export interface KubePort {
  get(gvr: Gvr, namespace: string, name: string): Promise<unknown>;
  list(gvr: Gvr, namespace: string): Promise<unknown[]>;
  create(gvr: Gvr, body: object): Promise<unknown>;
  remove(gvr: Gvr, namespace: string, name: string): Promise<boolean>;
  watch(gvr: Gvr, namespace: string, onEvent: (type: string) => void): Promise<() => void>;
}

export interface ReadCache {
  start(gvr: Gvr, namespace: string): Promise<void>;
}

export interface AccessReview {
  canI(verb: string, resource: string, namespace: string): Promise<boolean>;
}
