/**
 * Serving a watch over HTTP: headers are flushed at once (clients wait for them before
 * reading events), then one JSON object per line — `{"type":"ADDED","object":{…}}` —
 * until `timeoutSeconds` passes, the client goes away, or the server ends the watch
 * (410 Expired as an ERROR event). Bookmarks are sent periodically when the client allows
 * them. With `Accept: …;as=Table` (kubectl get -w) each event carries a one-row Table.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JsonObject } from '../api/json.js';
import { startWatch, type WatchHandle, type WatchOptions } from '../ops/watch.js';
import type { OpsEnv } from '../ops/op-options.js';
import { apiVersionOf, type ResourceDef } from '../resources/resource-def.js';
import { jsonText } from './http-io.js';
import type { Representation } from './negotiate.js';
import { partialObject, toTable, type IncludeObject } from './table.js';

/** Timing of watches. */
export interface WatchTiming {
  /** Used when the client gives no timeoutSeconds (the real server picks 30–60 minutes). */
  defaultTimeoutSeconds: number;
  bookmarkIntervalMs: number;
}

/** Stop a slow consumer rather than buffer without bound. */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

/** Serve a watch on `res`. Throws (before any byte is written) for invalid selectors. */
export function serveWatch(
  env: OpsEnv, def: ResourceDef, opts: WatchOptions & { timeoutSeconds?: number; allowBookmarks: boolean },
  representation: Representation, include: IncludeObject, req: IncomingMessage, res: ServerResponse,
  timing: WatchTiming,
): void {
  const render = (type: string, object: JsonObject): JsonObject => {
    if (type === 'ERROR' || type === 'BOOKMARK') return object;
    if (representation.kind === 'table') {
      return toTable(def, [object], { resourceVersion: '' }, include, representation.version);
    }
    if (representation.kind === 'partial') return partialObject(object, representation.version);
    return object;
  };
  let open = false;
  const pending: string[] = [];
  const write = (type: string, object: JsonObject): void => {
    const line = `{"type":${JSON.stringify(type)},"object":${jsonText(render(type, object))}}\n`;
    if (!open) {
      pending.push(line);
      return;
    }
    res.write(line);
    if (res.writableLength > MAX_BUFFERED_BYTES) finish();
  };

  let handle: WatchHandle | undefined = undefined;
  const timers: NodeJS.Timeout[] = [];
  let finished = false;
  const finish = (): void => {
    if (finished) return;
    finished = true;
    handle?.stop();
    for (const t of timers) clearTimeout(t);
    if (!res.writableEnded) res.end();
  };

  handle = startWatch(env, def, opts, write);
  const started = handle;
  res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private',
    'Transfer-Encoding': 'chunked' });
  res.flushHeaders();
  open = true;
  for (const line of pending) res.write(line);
  if (started.ended) {
    finish();
    return;
  }
  const timeout = (opts.timeoutSeconds || timing.defaultTimeoutSeconds) * 1000;
  timers.push(setTimeout(finish, timeout));
  if (opts.allowBookmarks) {
    timers.push(setInterval(() => {
      write('BOOKMARK', { kind: def.kind, apiVersion: apiVersionOf(def),
        metadata: { resourceVersion: String(env.objects.revision) } });
    }, timing.bookmarkIntervalMs));
  }
  req.on('close', finish);
  res.on('close', finish);
}
