/**
 * A tool's progress as MCP progress notifications, when the call asked for them with a
 * `_meta.progressToken`: each with the token, a `progress` that grows by one per
 * notification (the total is not known) and the tool's message. They go out on the
 * call's own response stream (the handler answers such a request with SSE).
 *
 * While a call that has reported progress runs on without news (a rollout that is stuck,
 * a wait for a deletion), its last message is sent again every `heartbeatMs`. MCP lets a
 * client reset its request timeout on each progress notification (lifecycle, timeouts);
 * without the repeat a 600-second wait on an agent that does not change sent nothing
 * after its first status, and a client with the common 60-second timeout gave up on it
 * even when it resets on progress. The repeat says the same thing, so `message` is still
 * the latest summary.
 */

/** Sends one progress notification (the progress value and message). */
export type SendProgress = (progress: number, message: string) => void;

/** How often a quiet call repeats its last progress, by default. */
export const PROGRESS_HEARTBEAT_MS = 15_000;

export class ProgressReporter {
  private progress = 0;
  private last: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly send: SendProgress, private readonly heartbeatMs = PROGRESS_HEARTBEAT_MS) {}

  /** The tool's news: sent now, and repeated while nothing newer comes. */
  readonly report = (message: string): void => {
    if (this.stopped) return;
    this.last = message;
    this.emit();
  };

  /** The call has its result: nothing more is sent. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private emit(): void {
    clearTimeout(this.timer);
    if (this.last === undefined) return;
    this.progress += 1;
    this.send(this.progress, this.last);
    if (this.heartbeatMs > 0) {
      this.timer = setTimeout(() => this.emit(), this.heartbeatMs);
      this.timer.unref();
    }
  }
}
