import { describe, expect, it } from 'vitest';
import { describeOtel, otelSettingsFrom } from './otel-settings.js';
import { startTracing } from './otel-tracing.js';

describe('otelSettingsFrom', () => {
  it('is off without an OTLP endpoint, whatever else is set, and then creates no tracer', () => {
    const settings = otelSettingsFrom({ OTEL_SERVICE_NAME: 'x', OTEL_TRACES_SAMPLER: 'always_on' });
    expect(settings).toEqual({ enabled: false });
    expect(startTracing(settings, { version: '1' })).toBeUndefined();
  });

  it('is off when OTEL_SDK_DISABLED or OTEL_TRACES_EXPORTER=none says so', () => {
    expect(otelSettingsFrom({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' })).toEqual({ enabled: false });
    expect(otelSettingsFrom({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' })).toEqual({ enabled: false });
  });

  it('posts to <endpoint>/v1/traces, or to the traces endpoint as given', () => {
    expect(otelSettingsFrom({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toMatchObject({ enabled: true, tracesUrl: 'http://collector:4318/v1/traces' });
    expect(otelSettingsFrom({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://c.example/otlp/traces' })).toMatchObject({ tracesUrl: 'https://c.example/otlp/traces' });
  });

  it('reads headers, resource attributes, the service name and the sampler as the OTel spec writes them', () => {
    const settings = otelSettingsFrom({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_HEADERS: 'api-key=a%20b,x=1',
      OTEL_RESOURCE_ATTRIBUTES: 'service.name=am,k8s.pod.name=p-1', OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1',
    });
    expect(settings).toMatchObject({
      headers: { 'api-key': 'a b', x: '1' }, serviceName: 'am', resourceAttributes: { 'k8s.pod.name': 'p-1' },
      sampler: 'parentbased_traceidratio', samplerRatio: 0.1,
    });
    expect(JSON.stringify(describeOtel(settings))).not.toContain('a b');
  });

  it('refuses what it cannot honour, naming the variable', () => {
    const base = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' };
    expect(() => otelSettingsFrom({ ...base, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(/^OTEL_EXPORTER_OTLP_PROTOCOL "grpc": agent-manager exports OTLP\/HTTP JSON/);
    expect(() => otelSettingsFrom({ ...base, OTEL_TRACES_SAMPLER: 'sometimes' })).toThrow(/^OTEL_TRACES_SAMPLER "sometimes": want one of/);
    expect(() => otelSettingsFrom({ ...base, OTEL_TRACES_SAMPLER_ARG: '2' })).toThrow('OTEL_TRACES_SAMPLER_ARG "2": want a ratio from 0 to 1');
    expect(() => otelSettingsFrom({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(/^OTEL_EXPORTER_OTLP_ENDPOINT "collector:4318\/v1\/traces": want an http\(s\) URL/);
    expect(() => otelSettingsFrom({ ...base, OTEL_EXPORTER_OTLP_HEADERS: 'novalue' })).toThrow('OTEL_EXPORTER_OTLP_HEADERS: "novalue" has no value');
  });
});
