/**
 * A pino destination for tests that keeps every JSON line and lets a test wait for the
 * line it expects. Access lines are written when a response finishes, after the client
 * already has the answer, so a test waits for the line itself rather than for a while.
 */
import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';

export type LogLine = Record<string, unknown>;

export interface LogLines {
  readonly stream: Writable;
  lines(): LogLine[];
  text(): string;
  /** The first line (already written or still to come) that `match` accepts; fails after `timeoutMs`. */
  waitFor(match: (line: LogLine) => boolean, what: string, timeoutMs?: number): Promise<LogLine>;
}

export function captureLogLines(): LogLines {
  const raw: string[] = [];
  const parsed: LogLine[] = [];
  const written = new EventEmitter();
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      for (const line of String(chunk).split('\n').filter(Boolean)) {
        raw.push(line);
        parsed.push(JSON.parse(line) as LogLine);
      }
      written.emit('line');
      callback();
    },
  });
  const waitFor = (match: (line: LogLine) => boolean, what: string, timeoutMs = 10_000) =>
    new Promise<LogLine>((resolve, reject) => {
      const check = () => {
        const found = parsed.find(match);
        if (!found) return;
        clearTimeout(timer);
        written.off('line', check);
        resolve(found);
      };
      const timer = setTimeout(() => {
        written.off('line', check);
        reject(new Error(`no log line ${what} within ${timeoutMs} ms`));
      }, timeoutMs);
      written.on('line', check);
      check();
    });
  return { stream, lines: () => [...parsed], text: () => raw.join('\n'), waitFor };
}
