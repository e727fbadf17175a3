/**
 * OpenTelemetry traces from the official SDK, created only when the OTEL_* environment asks: a SERVER
 * span per main-listener request (continuing `traceparent`, named by route pattern; probes untraced), a
 * span per service operation (`error.type` the code), and CLIENT spans for Kubernetes, registry and
 * GitHub calls. The context manager is process-wide (the OTel API allows one); the tracer provider is per
 * instance, so two services in one process export separately (docs/operations.md "Traces").
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import {
  context, defaultTextMapGetter, isSpanContextValid, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span,
  type Tracer,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler, AlwaysOnSampler, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, TracerProvider,
  type Sampler,
} from '@opentelemetry/sdk-trace';
import { kubeCallCode, type KubeCallHook } from '../kube/instrumented.js';
import type { FetchHook } from '../net/instrumented-fetch.js';
import { operationOutcome, type OperationHook } from '../service/instrumented-service.js';
import { setTraceFields } from '../log/logger.js';
import type { OtelSettings } from './otel-settings.js';

const PROBES = new Set(['/healthz', '/readyz']);
const propagator = new W3CTraceContextPropagator();
let contextManagerSet = false;

/** A running tracer and the hooks that feed it. */
export interface Tracing {
  readonly kubeHook: KubeCallHook;
  readonly fetchHook: FetchHook;
  readonly operationHook: OperationHook;
  /** `listener` with a SERVER span around every request but the probes. */
  httpListener(listener: RequestListener, routeOf: (req: IncomingMessage) => string): RequestListener;
  /** Exports what is buffered and stops. */
  shutdown(): Promise<void>;
}

function activeSpanIds(): { trace_id?: string; span_id?: string } {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const ids = span.spanContext();
  return isSpanContextValid(ids) ? { trace_id: ids.traceId, span_id: ids.spanId } : {};
}

/** The tracer for the settings, or undefined when tracing is off. */
export function startTracing(settings: OtelSettings, build: { version: string }): Tracing | undefined {
  if (!settings.enabled) return undefined;
  if (!contextManagerSet) {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    contextManagerSet = true;
    // Log lines carry the active span's ids (the OpenTelemetry log data model's names).
    setTraceFields(activeSpanIds);
  }
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ ...settings.resourceAttributes, 'service.name': settings.serviceName,
      'service.version': build.version }),
    sampler: samplerOf(settings.sampler, settings.samplerRatio),
    spanProcessors: [new BatchSpanProcessor({
      exporter: new OTLPTraceExporter({ url: settings.tracesUrl, headers: { ...settings.headers } }),
      scheduledDelayMillis: settings.batchDelayMs,
    })],
  });
  const tracer = provider.getTracer('agent-manager', build.version);
  return {
    kubeHook: kubeSpans(tracer),
    fetchHook: fetchSpans(tracer),
    operationHook: operationSpans(tracer),
    httpListener: (listener, routeOf) => serverSpans(tracer, listener, routeOf),
    shutdown: () => provider.shutdown(),
  };
}

/** A CLIENT span per Kubernetes call; a failure or a 5xx marks it an error (a 404 is an answer). */
function kubeSpans(tracer: Tracer): KubeCallHook {
  return (call, run) => around(tracer, `kube ${call.verb} ${call.resource}`, SpanKind.CLIENT, {
    'k8s.resource': call.resource, 'agent_manager.kube.verb': call.verb,
    ...(call.namespace && { 'k8s.namespace.name': call.namespace }),
  }, run, (span, outcome) => {
    const code = kubeCallCode(call, outcome);
    if (code !== 'error') span.setAttribute('http.response.status_code', Number(code));
    if ('error' in outcome && (code === 'error' || Number(code) >= 500)) {
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
  });
}

/** A CLIENT span per outbound request, its trace context passed on in `traceparent`. */
function fetchSpans(tracer: Tracer): FetchHook {
  return (call, run) => around(tracer, call.method, SpanKind.CLIENT, {
    'http.request.method': call.method, 'server.address': call.url.hostname, 'agent_manager.peer': call.peer,
    'url.full': `${call.url.origin}${call.url.pathname}`,
  }, () => {
    propagator.inject(context.active(), call.headers, { set: (h, k, v) => h.set(k, v) });
    return run();
  }, (span, outcome) => {
    if ('result' in outcome) {
      const { status } = outcome.result;
      span.setAttribute('http.response.status_code', status);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    } else {
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
  });
}

/** An INTERNAL span per service operation; `error.type` is the failure's code, an error only when it is ours. */
function operationSpans(tracer: Tracer): OperationHook {
  return (call, run) => around(tracer, call.name, SpanKind.INTERNAL, { 'agent_manager.operation': call.name },
    run, (span, outcome) => {
      if ('error' in outcome) {
        const code = operationOutcome(outcome.error);
        span.setAttribute('error.type', code);
        if (code === 'backend_error' || code === 'internal') span.setStatus({ code: SpanStatusCode.ERROR });
      }
    });
}

/** `listener` with a SERVER span around every request but the probes, named by route once the answer is out. */
function serverSpans(
  tracer: Tracer, listener: RequestListener, routeOf: (req: IncomingMessage) => string,
): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    const path = pathOf(req.url ?? '/');
    if (PROBES.has(path)) return listener(req, res);
    const parent = propagator.extract(ROOT_CONTEXT, req.headers, defaultTextMapGetter);
    const method = req.method ?? 'GET';
    const span = tracer.startSpan(method, {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': method, 'url.path': path, 'url.scheme': 'http',
        'user_agent.original': req.headers['user-agent'] ?? '' },
    }, parent);
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      const route = routeOf(req);
      span.updateName(`${method} ${route}`);
      span.setAttribute('http.route', route);
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500 || !res.writableFinished) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    };
    res.once('finish', end);
    res.once('close', end);
    context.with(trace.setSpan(parent, span), () => listener(req, res));
  };
}

/** Runs `run` inside a span that `finish` describes from the outcome, then ends it. */
async function around<T>(
  tracer: Tracer, name: string, kind: SpanKind, attributes: Record<string, string>, run: () => Promise<T>,
  finish: (span: Span, outcome: { result: T } | { error: unknown }) => void,
): Promise<T> {
  return tracer.startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      const result = await run();
      finish(span, { result });
      return result;
    } catch (error) {
      finish(span, { error });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The request target without its query. */
function pathOf(target: string): string {
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
}

function samplerOf(name: string, ratio: number): Sampler {
  switch (name) {
    case 'always_on': return new AlwaysOnSampler();
    case 'always_off': return new AlwaysOffSampler();
    case 'traceidratio': return new TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_off': return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio': return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
    default: return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}
