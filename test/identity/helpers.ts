/**
 * Shared pieces of the identity suites: a production-shaped logger whose lines are kept
 * for assertions, a port nothing listens on, HTTP helpers and the challenge parser.
 */
import { expect } from 'vitest';
import { createLogger, type Logger } from '../../src/log/logger.js';
import { captureLogLines, type LogLines } from '../support/log-lines.js';

/** The production logger (redaction included) at debug, writing into `lines`. */
export function capturedLogger(): { log: Logger; lines: Record<string, unknown>[]; text(): string; waitFor: LogLines['waitFor'] } {
  const out = captureLogLines();
  return {
    log: createLogger({ destination: out.stream, level: 'debug', pretty: false }),
    get lines() { return out.lines(); },
    text: out.text,
    waitFor: out.waitFor,
  };
}

export { deadPort } from '../support/start-serve.js';

/** A response read whole: status, headers, body as JSON when it is JSON. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json?: Record<string, any>;
}

/** One HTTP request; `token` becomes `Authorization: Bearer <token>`, `authorization` is sent as is. */
export async function request(
  url: string,
  options: {
    method?: string; token?: string; authorization?: string; body?: unknown; headers?: Record<string, string>;
  } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  if (options.authorization !== undefined) headers.authorization = options.authorization;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, {
    method: options.method ?? 'GET',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  const json = (res.headers.get('content-type') ?? '').startsWith('application/json') ? (JSON.parse(text) as Record<string, any>) : undefined;
  return { status: res.status, headers: res.headers, text, json };
}

/** A JSON-RPC `tools/call` body for a raw POST to the MCP endpoint. */
export function toolsCall(name: string, args: Record<string, unknown> = {}, id = 1): Record<string, unknown> {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } };
}

/** The headers a raw MCP POST needs. */
export const MCP_HEADERS = { accept: 'application/json, text/event-stream' };

/** The parameters of a `WWW-Authenticate: Bearer k="v", …` challenge (fails when it is not one). */
export function challengeOf(answer: { headers: Headers }): Record<string, string> {
  const value = answer.headers.get('www-authenticate') ?? '';
  expect(value).toMatch(/^Bearer /);
  return Object.fromEntries([...value.slice(7).matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
}
