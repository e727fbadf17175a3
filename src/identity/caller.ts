/**
 * Who a request acts for. The caller is a value passed explicitly into every service
 * method (never ambient state), so "who is this call" is visible in every signature
 * and every test. Without OAuth there is no caller and the service acts as its
 * ServiceAccount; with downstream OAuth the caller's token is what the Kubernetes API
 * sees, and there is no fallback to the ServiceAccount.
 */
import type { Logger } from 'pino';

/** The verified person behind a request. */
export interface Caller {
  subject: string;
  email?: string;
  name?: string;
  groups: string[];
  /** `sso`: a forwarded IdP id_token; `oauth`: a token this server issued (unused here). */
  source: 'sso' | 'oauth';
}

/** Everything a service call knows about its request. */
export interface RequestContext {
  requestId: string;
  caller?: Caller;
  /** The caller's raw bearer (the IdP id_token); never logged. */
  token?: string;
  /** The caller's GitHub user token (`X-GitHub-Token`), for commit mode; never logged, never stored. */
  githubToken?: string;
  log: Logger;
  signal?: AbortSignal;
  /**
   * Tells the client how a long call is getting on (MCP progress notifications, when the
   * call carries a progress token); absent: nobody is listening.
   */
  progress?: (message: string) => void;
}

/** The caller as log lines and results name it: email, else subject. */
export function callerName(caller: Caller | undefined): string | undefined {
  if (!caller) return undefined;
  return caller.email || caller.subject || undefined;
}

/** The `caller=` value of a write's log line. */
export function callerLogValue(caller: Caller | undefined): string {
  return callerName(caller) ?? 'service-account';
}

/**
 * `{ caller }` for a line written through `ctx.log`, or nothing when that logger already
 * binds it (the HTTP context does once the bearer guard named the caller): pino writes a
 * key given twice twice, and a JSON line with a repeated key is read differently by
 * different log pipelines.
 */
export function callerLogFields(ctx: { caller?: Caller; log: Logger }): { caller?: string } {
  return Object.hasOwn(ctx.log.bindings(), 'caller') ? {} : { caller: callerLogValue(ctx.caller) };
}
