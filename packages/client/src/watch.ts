/**
 * `watchAgentStatus`: the status stream (`GET …/status?watch=true`, text/event-stream) as an async
 * iterator of typed events. The service sends `status` with the Status at once and on every change,
 * then `end` with its reason (ready, failed, deleted, timeout, shutdown) and closes; `error` carries
 * the Error body. Comment lines (`: keep-alive`) are skipped. A refusal before the stream is thrown.
 */
import { toAgentManagerError } from './errors.js';
import type { AgentManagerClient } from './client.js';
import type { components } from './openapi.generated.js';

/** One event of the stream. */
export type StatusEvent =
  | { event: 'status'; data: components['schemas']['Status'] }
  | { event: 'end'; data: { reason: 'ready' | 'failed' | 'deleted' | 'timeout' | 'shutdown' } }
  | { event: 'error'; data: components['schemas']['Error'] };

export interface WatchOptions {
  namespace: string;
  name: string;
  /** 1 to 600 (the service's default: 60). */
  timeoutSeconds?: number;
  /** Not ready before the release has reached this generation (a write's). */
  generation?: number;
  signal?: AbortSignal;
}

/** Parses one SSE event block (`event:` and `data:` lines); undefined for a comment-only block. */
function parseBlock(block: string): StatusEvent | undefined {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith('event:')) event = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  }
  if (data.length === 0) return undefined;
  return { event, data: JSON.parse(data.join('\n')) } as StatusEvent;
}

export async function* watchAgentStatus(
  client: AgentManagerClient, options: WatchOptions,
): AsyncGenerator<StatusEvent> {
  const { namespace, name, timeoutSeconds, generation, signal } = options;
  const { response, error } = await client.GET('/api/v1/agents/{namespace}/{name}/status', {
    params: { path: { namespace, name }, query: { watch: true, timeoutSeconds, generation } },
    headers: { accept: 'text/event-stream' },
    parseAs: 'stream',
    signal,
  });
  if (!response.ok || !response.body) throw toAgentManagerError(response, error);
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true }).replace(/\r\n?/g, '\n');
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const parsed = parseBlock(buffer.slice(0, cut));
      buffer = buffer.slice(cut + 2);
      if (parsed) yield parsed;
    }
  }
}
