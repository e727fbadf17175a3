/**
 * The request hook chain of the sandbox API server: code that runs around every
 * authenticated API request, after it is counted and before it is authorized and served.
 * A hook may delay the request, answer it itself (`ctx.fail`), drop the connection
 * (`ctx.drop`), or call `next()` to continue. Fault injection (latency, failing the next
 * N matching requests, dropped connections) is built from hooks.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StatusError } from './api/status.js';
import type { UserInfo } from './ops/op-options.js';
import type { RequestInfo } from './server/request-info.js';

/** What a hook sees of a request and what it may do with it. */
export interface HookContext {
  readonly info: RequestInfo;
  readonly user: UserInfo;
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** Answer with this Status instead of serving the request. */
  fail(error: StatusError): void;
  /** Destroy the connection without an answer. */
  drop(): void;
}

/** A hook; it must call `next()` for the request to be served, and may await before or after. */
export type RequestHook = (ctx: HookContext, next: () => Promise<void>) => Promise<void>;

export class HookChain {
  private hooks: RequestHook[] = [];

  /** Add a hook at the end of the chain; returns a function that removes it. */
  use(hook: RequestHook): () => void {
    this.hooks.push(hook);
    return () => {
      this.hooks = this.hooks.filter((h) => h !== hook);
    };
  }

  /** Remove every hook. */
  clear(): void {
    this.hooks = [];
  }

  get size(): number {
    return this.hooks.length;
  }

  /** Run the chain, ending with `serve`. A snapshot of the hooks is taken per request. */
  run(ctx: HookContext, serve: () => Promise<void>): Promise<void> {
    const hooks = [...this.hooks];
    const step = (i: number): Promise<void> => (i < hooks.length ? hooks[i]!(ctx, () => step(i + 1)) : serve());
    return step(0);
  }
}
