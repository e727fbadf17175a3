/**
 * A moderate, paced mixed workload against the real app: each client repeats the
 * portal's and an agent's usual calls (list, get, status, validate, MCP get_agent, info)
 * and the life of one agent of its own (create, update, delete, so names never repeat
 * and nothing accumulates). Every answer is checked for its expected status; latencies
 * are collected per window for the soak's comparisons.
 */
import type { HttpClient, HttpResponse } from './http.js';

export interface LoadWindow {
  /** Latencies (ms) of the requests that finished in this window. */
  latencies: number[];
}

export interface MixedLoad {
  /** Requests answered so far. */
  readonly requests: number;
  /** Unexpected answers ("what → status text"), at most 20 kept. */
  readonly failures: string[];
  readonly failureCount: number;
  /** Close the current window and start a new one; returns the closed one. */
  cut(): LoadWindow;
  /** Let every client finish its request in flight and wait; resolves once all are idle. */
  pause(): Promise<void>;
  resume(): void;
  stop(): Promise<void>;
}

export interface MixedLoadOptions {
  /** Concurrent clients (each has at most one request in flight). */
  clients: number;
  /** Requests per second over all clients; the clients wait for their turn (paced, not saturating). */
  rate: number;
  /** Seeded agents (in kagent) the reads ask for. */
  reads: readonly string[];
  /** Prefix of the agents the clients create. */
  prefix: string;
}

/**
 * Start the load. Pacing keeps the request rate, and so the allocation rate, the same
 * however busy the machine is: a soak then compares like with like over time.
 */
export function startMixedLoad(client: HttpClient, options: MixedLoadOptions): MixedLoad {
  const interval = 1000 / options.rate;
  let nextSlot = performance.now();
  let window: LoadWindow = { latencies: [] };
  const failures: string[] = [];
  let failureCount = 0;
  let requests = 0;
  let running = true;
  let n = 0;
  // Pausing: clients wait at `gate` before each request; `idle` counts the waiting ones.
  let gate: Promise<void> | undefined;
  let open: (() => void) | undefined;
  let idle = 0;
  let allIdle: (() => void) | undefined;
  const send = async (request: () => Promise<HttpResponse>): Promise<HttpResponse> => {
    while (gate) {
      idle++;
      if (idle === options.clients) allIdle?.();
      await gate;
      idle--;
    }
    const slot = Math.max(nextSlot, performance.now());
    nextSlot = slot + interval;
    const wait = slot - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    return request();
  };

  const check = (what: string, res: HttpResponse, status: number): void => {
    requests++;
    window.latencies.push(res.ms);
    if (res.status !== status || !res.complete) {
      failureCount++;
      if (failures.length < 20) failures.push(`${what} → ${res.status} ${res.text.slice(0, 200)}`);
    }
  };
  const loop = async (c: number): Promise<void> => {
    while (running) {
      const i = n++;
      const read = options.reads[i % options.reads.length]!;
      const name = `${options.prefix}-${c}-${i}`;
      check('list', await send(() => client.send('GET', '/api/v1/agents')), 200);
      check('get', await send(() => client.send('GET', `/api/v1/agents/kagent/${read}`)), 200);
      check('status', await send(() => client.send('GET', `/api/v1/agents/kagent/${read}/status`)), 200);
      const spec = { name, modelConfig: 'default-model-config', toolset: ['preset:read-only'], description: `soak ${i}` };
      check('validate', await send(() => client.send('POST', '/api/v1/agents/validate', { body: spec })), 200);
      const tool = await send(() => client.callTool('get_agent', { name: read }, i));
      check('mcp get_agent', tool.json?.result?.isError ? { ...tool, status: 599 } : tool, 200);
      check('create', await send(() => client.send('POST', '/api/v1/agents', { body: spec })), 201);
      check('update', await send(() => client.send('PATCH', `/api/v1/agents/kagent/${name}`, { body: { displayName: `Soak ${i}`, labels: { i: String(i) } } })), 200);
      check('delete', await send(() => client.send('DELETE', `/api/v1/agents/kagent/${name}`)), 200);
      check('info', await send(() => client.send('GET', '/api/v1/info')), 200);
    }
  };
  const done = Promise.all(Array.from({ length: options.clients }, (_, c) => loop(c)));
  return {
    get requests() {
      return requests;
    },
    failures,
    get failureCount() {
      return failureCount;
    },
    cut() {
      const closed = window;
      window = { latencies: [] };
      return closed;
    },
    pause() {
      if (gate) throw new Error('already paused');
      gate = new Promise((resolve) => {
        open = resolve;
      });
      return new Promise<void>((resolve) => {
        allIdle = resolve;
        if (idle === options.clients) resolve();
      });
    },
    resume() {
      nextSlot = performance.now();
      gate = undefined;
      allIdle = undefined;
      open?.();
    },
    async stop() {
      running = false;
      this.resume();
      await done;
    },
  };
}

/** The p-th percentile (0-100) of `values`, nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}
