/**
 * Reading a server-sent event stream in tests: each event (`event:` name and the JSON of
 * its `data:` lines) as it arrives, comment lines skipped, until the stream ends or the
 * reader says to stop.
 */

export interface ServerEvent {
  event: string;
  data: unknown;
  /** The event's `id:`, read only when the reader asks for ids. */
  id?: string;
}

/** The events of a whole stream's text. */
export function parseEvents(text: string): ServerEvent[] {
  return text.split('\n\n').map((block) => parseBlock(block)).filter((e): e is ServerEvent => e !== undefined);
}

function parseBlock(block: string, withId = false): ServerEvent | undefined {
  const lines = block.split('\n').filter((l) => l !== '' && !l.startsWith(':'));
  if (lines.length === 0) return undefined;
  const event = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? 'message';
  const data = lines.filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
  const id = withId ? lines.find((l) => l.startsWith('id: '))?.slice(4) : undefined;
  return { event, data: JSON.parse(data) as unknown, ...(id === undefined ? {} : { id }) };
}

/**
 * Calls `onEvent` with every event of `res`'s body as it arrives; resolves with all of them
 * once the stream ends, or as soon as `onEvent` returns `'stop'` (the body is cancelled).
 */
export async function readEvents(
  res: Response, onEvent: (event: ServerEvent) => void | 'stop' = () => undefined, options: { ids?: boolean } = {},
): Promise<ServerEvent[]> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const events: ServerEvent[] = [];
  let buffered = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return events;
    buffered += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffered.indexOf('\n\n')) >= 0) {
      const event = parseBlock(buffered.slice(0, end), options.ids);
      buffered = buffered.slice(end + 2);
      if (!event) continue;
      events.push(event);
      if (onEvent(event) === 'stop') {
        await reader.cancel();
        return events;
      }
    }
  }
}
