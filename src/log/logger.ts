/**
 * The one pino root logger. JSON lines on stderr; pretty only in a terminal with pino-pretty
 * installed (a dev dependency, never in the image). Authorization headers, cookies and
 * anything named token or secret are redacted wherever they appear in a log object, so a
 * bearer never reaches a log line. A line written while an OpenTelemetry span is active
 * carries its `trace_id` and `span_id` (the OpenTelemetry log data model's names), so a
 * request's lines lead to its trace.
 */
import { createRequire } from 'node:module';
import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger };

/** Paths pino replaces with "[redacted]". */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-muster-id-token"]',
  'req.headers["x-github-token"]',
  'githubToken',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'authorization',
  'token',
  'accessToken',
  'idToken',
  'clientSecret',
  '*.token',
  '*.accessToken',
  '*.idToken',
  '*.authorization',
  '*.clientSecret',
  '*.password',
];

export interface LoggerConfig {
  verbose?: boolean;
  /** Force pretty output on or off; default: only when stderr is a terminal. */
  pretty?: boolean;
  /** Write somewhere other than stderr (tests). */
  destination?: pino.DestinationStream;
  level?: pino.LevelWithSilent;
}

/** A line's trace fields: the active span's ids, none outside a span. */
export type TraceFields = () => { trace_id?: string; span_id?: string };

// Set by the tracing module once traces are on (otel-tracing.ts): without traces no span is
// ever active, so neither the OpenTelemetry API is loaded nor a span looked up per line.
let spanIds: TraceFields | undefined;

/** Where every line's trace fields come from from now on (child loggers inherit the mixin). */
export function setTraceFields(source: TraceFields | undefined): void {
  spanIds = source;
}

/**
 * The active span's ids, for every line; none outside a span or without traces. A new object
 * each time: pino merges the line's fields into what the mixin returns.
 */
export function traceFields(): { trace_id?: string; span_id?: string } {
  return spanIds?.() ?? {};
}

/** Build the root logger. */
export function createLogger(config: LoggerConfig = {}): Logger {
  const options: LoggerOptions = {
    name: 'agent-manager',
    level: config.level ?? (config.verbose ? 'debug' : 'info'),
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin: traceFields,
  };
  if (config.destination) return pino(options, config.destination);
  // pino-pretty is a dev dependency: without it (the image), a terminal gets the JSON lines too.
  const pretty = (config.pretty ?? Boolean(process.stderr.isTTY)) && prettyInstalled();
  if (pretty) {
    return pino({
      ...options,
      transport: { target: 'pino-pretty',
        options: { destination: 2, colorize: true, translateTime: 'SYS:HH:MM:ss.l' } },
    });
  }
  return pino(options, batchedDestination(2));
}

/** Lines are written once this many bytes are waiting, or after LOG_FLUSH_MS. */
export const LOG_BUFFER_BYTES = 4096;
export const LOG_FLUSH_MS = 250;

/**
 * The file descriptor (stderr), written in batches: a write per line (pino's asynchronous destination queues one
 * on libuv's thread pool for each) cost as much as the rest of the access line, about a
 * third of the time of `GET /info`. Lines wait for 4 KiB or at most 250 ms (an unref'd
 * timer, so it never keeps the process alive), and pino flushes what is left
 * synchronously when the process exits, an uncaught exception included; only a process
 * killed outright (SIGKILL, the OOM killer) loses its last quarter second. Call
 * `log.flush()` after a line someone waits for (`listening`).
 */
export function batchedDestination(fd: number): pino.DestinationStream & { flush(): void } {
  const destination = pino.destination({ fd, sync: false, minLength: LOG_BUFFER_BYTES });
  setInterval(() => {
    // SonicBoom has `destroyed` at runtime; its typings leave it out. A stream pino is
    // already ending at exit flushes itself; a timer must never throw there.
    if ((destination as { destroyed?: boolean }).destroyed) return;
    try {
      destination.flush();
    } catch {
      // ending or destroyed meanwhile: nothing left for the timer to do
    }
  }, LOG_FLUSH_MS).unref();
  return destination;
}

function prettyInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}

/** A logger that drops everything (tests, benchmarks). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
