/**
 * A tool's progress as MCP progress notifications on the call's own response stream, when it asked with
 * a `_meta.progressToken`: `progress` grows by one each (no total is known) with the tool's message.
 * While a call runs on without news its last message is repeated every `heartbeatMs`: MCP lets a client
 * reset its timeout on progress, and without the repeat a long wait on an unchanging agent outlived a
 * client's 60-second timeout.
 */
/** How often a quiet call repeats its last progress, by default. */
export const PROGRESS_HEARTBEAT_MS = 15_000;
export class ProgressReporter {
    send;
    heartbeatMs;
    progress = 0;
    last;
    timer;
    stopped = false;
    constructor(send, heartbeatMs = PROGRESS_HEARTBEAT_MS) {
        this.send = send;
        this.heartbeatMs = heartbeatMs;
    }
    /** The tool's news: sent now, and repeated while nothing newer comes. */
    report = (message) => {
        if (this.stopped)
            return;
        this.last = message;
        this.emit();
    };
    /** The call has its result: nothing more is sent. */
    stop() {
        this.stopped = true;
        clearTimeout(this.timer);
    }
    emit() {
        clearTimeout(this.timer);
        if (this.last === undefined)
            return;
        this.progress += 1;
        this.send(this.progress, this.last);
        if (this.heartbeatMs > 0) {
            this.timer = setTimeout(() => this.emit(), this.heartbeatMs);
            this.timer.unref();
        }
    }
}
//# sourceMappingURL=progress.js.map