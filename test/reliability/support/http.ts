/**
 * A small HTTP/1.1 client for the reliability suites, on node:http with its own
 * keep-alive agent: the suites can send raw (malformed) bodies, see a body that was cut
 * off mid-way (`complete: false`) rather than have it papered over, time each request,
 * and destroy every socket they opened when they finish (so handle counts mean
 * something). Loopback only.
 */
import { Agent, request } from 'node:http';

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The parsed body when it is JSON, else undefined. */
  json: any;
  /** False when the connection ended before the whole body arrived. */
  complete: boolean;
  /** Wall time of the request in ms. */
  ms: number;
}

export interface SendOptions {
  /** A JSON value (serialised) or, as a string or Buffer, the raw body. */
  body?: unknown;
  headers?: Record<string, string>;
}

/** A client of one base URL (`http://127.0.0.1:<port>`). */
export class HttpClient {
  readonly agent: Agent;
  private readonly url: URL;

  constructor(readonly base: string, options: { maxSockets?: number } = {}) {
    this.url = new URL(base);
    this.agent = new Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 64 });
  }

  /** Send one request; rejects only when no response head arrived (refused, reset, …). */
  send(method: string, path: string, options: SendOptions = {}): Promise<HttpResponse> {
    const raw = options.body;
    const body = raw === undefined ? undefined
      : typeof raw === 'string' || Buffer.isBuffer(raw) ? raw : JSON.stringify(raw);
    const headers: Record<string, string> = { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers };
    const started = performance.now();
    return new Promise((resolve, reject) => {
      // The path goes out exactly as given (no URL normalisation of `.`, `%2E` or `//`).
      const target = { host: this.url.hostname, port: this.url.port, path, method, headers, agent: this.agent };
      const req = request(target, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        let done = false;
        const finish = (complete: boolean) => {
          if (done) return;
          done = true;
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          if (String(res.headers['content-type'] ?? '').includes('json')) {
            try {
              json = JSON.parse(text);
            } catch {
              json = undefined;
            }
          }
          resolve({
            status: res.statusCode ?? 0, headers: res.headers, text, json, complete, ms: performance.now() - started,
          });
        };
        res.on('end', () => finish(res.complete));
        res.on('error', () => finish(false));
        res.on('aborted', () => finish(false));
        res.on('close', () => finish(res.complete));
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  /** MCP `tools/call` over the stateless streamable HTTP endpoint (JSON responses). */
  callTool(name: string, args: unknown, id: number | string = 1, path = '/mcp'): Promise<HttpResponse> {
    return this.send('POST', path, {
      body: { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } },
      headers: { accept: 'application/json, text/event-stream' },
    });
  }

  /** Destroy every socket of this client. */
  close(): void {
    this.agent.destroy();
  }
}
