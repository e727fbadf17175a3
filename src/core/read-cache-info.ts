/**
 * Where reads are answered from, as get_info reports it. `off`: every read goes to the API
 * server (`--read-cache=false`); `syncing`: not every store has listed yet, and those reads
 * go to the API server; `ready`: reads are answered from the watch-fed cache; `degraded`:
 * some stores lost their watch for too long or hold too many objects, and their reads go
 * to the API server.
 */
export interface ReadCacheInfo {
  enabled: boolean;
  state: 'off' | 'syncing' | 'ready' | 'degraded';
  /** Stores by state (one per type and namespace), objects held, re-lists after the first (410 Gone, failures). */
  feeds?: { syncing: number; synced: number; stale: number; overflow: number };
  objects?: number;
  relists?: number;
}
