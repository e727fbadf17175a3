import { context, defaultTextMapGetter, isSpanContextValid, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOffSampler, AlwaysOnSampler, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, TracerProvider, } from '@opentelemetry/sdk-trace';
import { kubeCallCode } from '../kube/instrumented.js';
import { operationOutcome } from '../service/instrumented-service.js';
import { setTraceFields } from '../log/logger.js';
const PROBES = new Set(['/healthz', '/readyz']);
const propagator = new W3CTraceContextPropagator();
let contextManagerSet = false;
function activeSpanIds() {
    const span = trace.getActiveSpan();
    if (!span)
        return {};
    const ids = span.spanContext();
    return isSpanContextValid(ids) ? { trace_id: ids.traceId, span_id: ids.spanId } : {};
}
/** The tracer for the settings, or undefined when tracing is off. */
export function startTracing(settings, build) {
    if (!settings.enabled)
        return undefined;
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
        kubeHook: (call, run) => around(tracer, `kube ${call.verb} ${call.resource}`, SpanKind.CLIENT, {
            'k8s.resource': call.resource, 'agent_manager.kube.verb': call.verb,
            ...(call.namespace && { 'k8s.namespace.name': call.namespace }),
        }, run, (span, outcome) => {
            const code = kubeCallCode(call, outcome);
            if (code !== 'error')
                span.setAttribute('http.response.status_code', Number(code));
            if ('error' in outcome && (code === 'error' || Number(code) >= 500)) {
                span.setStatus({ code: SpanStatusCode.ERROR });
            }
        }),
        fetchHook: (call, run) => around(tracer, call.method, SpanKind.CLIENT, {
            'http.request.method': call.method, 'server.address': call.url.hostname, 'agent_manager.peer': call.peer,
            'url.full': `${call.url.origin}${call.url.pathname}`,
        }, () => {
            propagator.inject(context.active(), call.headers, { set: (h, k, v) => h.set(k, v) });
            return run();
        }, (span, outcome) => {
            if ('result' in outcome) {
                const { status } = outcome.result;
                span.setAttribute('http.response.status_code', status);
                if (status >= 500)
                    span.setStatus({ code: SpanStatusCode.ERROR });
            }
            else {
                span.setStatus({ code: SpanStatusCode.ERROR });
            }
        }),
        operationHook: (call, run) => around(tracer, call.name, SpanKind.INTERNAL, { 'agent_manager.operation': call.name }, run, (span, outcome) => {
            if ('error' in outcome) {
                const code = operationOutcome(outcome.error);
                span.setAttribute('error.type', code);
                if (code === 'backend_error' || code === 'internal')
                    span.setStatus({ code: SpanStatusCode.ERROR });
            }
        }),
        httpListener: (listener, routeOf) => (req, res) => {
            const path = (req.url ?? '/').split('?')[0];
            if (PROBES.has(path))
                return listener(req, res);
            const parent = propagator.extract(ROOT_CONTEXT, req.headers, defaultTextMapGetter);
            const method = req.method ?? 'GET';
            const span = tracer.startSpan(method, {
                kind: SpanKind.SERVER,
                attributes: { 'http.request.method': method, 'url.path': path, 'url.scheme': 'http',
                    'user_agent.original': req.headers['user-agent'] ?? '' },
            }, parent);
            let ended = false;
            const end = () => {
                if (ended)
                    return;
                ended = true;
                const route = routeOf(req);
                span.updateName(`${method} ${route}`);
                span.setAttribute('http.route', route);
                span.setAttribute('http.response.status_code', res.statusCode);
                if (res.statusCode >= 500 || !res.writableFinished)
                    span.setStatus({ code: SpanStatusCode.ERROR });
                span.end();
            };
            res.once('finish', end);
            res.once('close', end);
            context.with(trace.setSpan(parent, span), () => listener(req, res));
        },
        shutdown: () => provider.shutdown(),
    };
}
/** Runs `run` inside a span that `finish` describes from the outcome, then ends it. */
async function around(tracer, name, kind, attributes, run, finish) {
    return tracer.startActiveSpan(name, { kind, attributes }, async (span) => {
        try {
            const result = await run();
            finish(span, { result });
            return result;
        }
        catch (error) {
            finish(span, { error });
            throw error;
        }
        finally {
            span.end();
        }
    });
}
function samplerOf(name, ratio) {
    switch (name) {
        case 'always_on': return new AlwaysOnSampler();
        case 'always_off': return new AlwaysOffSampler();
        case 'traceidratio': return new TraceIdRatioBasedSampler(ratio);
        case 'parentbased_always_off': return new ParentBasedSampler({ root: new AlwaysOffSampler() });
        case 'parentbased_traceidratio': return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
        default: return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    }
}
//# sourceMappingURL=tracing.js.map