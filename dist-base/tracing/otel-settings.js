/**
 * The standard OpenTelemetry SDK environment, read once at startup: tracing is on when an OTLP
 * (traces) endpoint is set and neither `OTEL_SDK_DISABLED=true` nor `OTEL_TRACES_EXPORTER=none`.
 * Spans go as OTLP/HTTP JSON, which every collector accepts; `grpc` and `http/protobuf` are refused at
 * startup rather than sent in another encoding. `OTEL_EXPORTER_OTLP_HEADERS` values are credentials and
 * never logged.
 */
const SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off',
    'parentbased_traceidratio'];
/** Thrown for a variable that cannot be used; the message names it. */
export class OtelSettingsError extends Error {
    name = 'OtelSettingsError';
}
/** The settings from the environment. Throws OtelSettingsError naming a bad variable. */
export function otelSettingsFrom(env) {
    const get = (name) => (env[name] ?? '').trim();
    const endpoint = get('OTEL_EXPORTER_OTLP_ENDPOINT');
    const tracesEndpoint = get('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
    if (get('OTEL_SDK_DISABLED').toLowerCase() === 'true' || get('OTEL_TRACES_EXPORTER') === 'none') {
        return { enabled: false };
    }
    if (endpoint === '' && tracesEndpoint === '')
        return { enabled: false };
    const protocol = get('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') || get('OTEL_EXPORTER_OTLP_PROTOCOL') || 'http/json';
    if (protocol !== 'http/json') {
        throw new OtelSettingsError(`OTEL_EXPORTER_OTLP_PROTOCOL ${JSON.stringify(protocol)}: agent-manager exports ` +
            `OTLP/HTTP JSON; set http/json (a collector's OTLP/HTTP receiver on :4318 accepts it)`);
    }
    const tracesUrl = tracesEndpoint || `${endpoint.replace(/\/+$/, '')}/v1/traces`;
    checkUrl(tracesEndpoint ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' : 'OTEL_EXPORTER_OTLP_ENDPOINT', tracesUrl);
    const sampler = get('OTEL_TRACES_SAMPLER') || 'parentbased_always_on';
    if (!SAMPLERS.includes(sampler)) {
        throw new OtelSettingsError(`OTEL_TRACES_SAMPLER ${JSON.stringify(sampler)}: want one of ${SAMPLERS.join(', ')}`);
    }
    const ratioText = get('OTEL_TRACES_SAMPLER_ARG');
    const samplerRatio = ratioText === '' ? 1 : Number(ratioText);
    if (!(samplerRatio >= 0 && samplerRatio <= 1)) {
        throw new OtelSettingsError(`OTEL_TRACES_SAMPLER_ARG ${JSON.stringify(ratioText)}: want a ratio from 0 to 1`);
    }
    const delayText = get('OTEL_BSP_SCHEDULE_DELAY');
    const batchDelayMs = delayText === '' ? 5000 : Number(delayText);
    if (!(Number.isInteger(batchDelayMs) && batchDelayMs >= 0)) {
        throw new OtelSettingsError(`OTEL_BSP_SCHEDULE_DELAY ${JSON.stringify(delayText)}: want milliseconds`);
    }
    const resourceAttributes = keyValues('OTEL_RESOURCE_ATTRIBUTES', get('OTEL_RESOURCE_ATTRIBUTES'));
    return {
        enabled: true,
        tracesUrl,
        headers: { ...keyValues('OTEL_EXPORTER_OTLP_HEADERS', get('OTEL_EXPORTER_OTLP_HEADERS')),
            ...keyValues('OTEL_EXPORTER_OTLP_TRACES_HEADERS', get('OTEL_EXPORTER_OTLP_TRACES_HEADERS')) },
        serviceName: get('OTEL_SERVICE_NAME') || resourceAttributes['service.name'] || 'agent-manager',
        resourceAttributes,
        sampler,
        samplerRatio,
        batchDelayMs,
    };
}
/** What may be logged: the endpoint, sampler and service, and only the header names. */
export function describeOtel(settings) {
    if (!settings.enabled)
        return undefined;
    return {
        tracesUrl: settings.tracesUrl, sampler: settings.sampler, serviceName: settings.serviceName,
        headers: Object.keys(settings.headers),
    };
}
function checkUrl(name, text) {
    if (!URL.canParse(text) || !/^https?:$/.test(new URL(text).protocol)) {
        throw new OtelSettingsError(`${name} ${JSON.stringify(text)}: want an http(s) URL such as ` +
            `http://otel-collector:4318`);
    }
}
/** `k1=v1,k2=v2` (W3C baggage form, values percent-decoded), as the OTel spec defines both variables. */
function keyValues(name, text) {
    const out = {};
    for (const item of text.split(',')) {
        if (item.trim() === '')
            continue;
        const eq = item.indexOf('=');
        if (eq <= 0) {
            throw new OtelSettingsError(`${name}: ${JSON.stringify(item.trim().split('=')[0])} has no value (want ` +
                `key=value,key=value)`);
        }
        try {
            out[decodeURIComponent(item.slice(0, eq).trim())] = decodeURIComponent(item.slice(eq + 1).trim());
        }
        catch {
            throw new OtelSettingsError(`${name}: an entry is not valid percent-encoding`);
        }
    }
    return out;
}
//# sourceMappingURL=otel-settings.js.map