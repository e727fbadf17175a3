// Traces end to end: the service with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a loopback
// OTLP/HTTP receiver, against the sandbox, a dead chart registry and a GitHub double. A
// request carrying a traceparent becomes a server span of that trace, with the operation's
// span under it and the Kubernetes and GitHub calls under that; the registry reads are
// client spans too. Every log line of a traced request carries its trace_id and span_id.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/logger.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.js';
import { deadRegistryFlag, serveConfig, startServe } from '../support/start-serve.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const SERVER = 2;
const CLIENT = 3;

describe('traces of a running service', () => {
  let receiver: OtlpReceiver;
  let github: Server;
  let githubApi: string;
  let spans: ReceivedSpan[];
  const lines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    github = createServer((_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}'));
    await new Promise<void>((resolve) => github.listen(0, '127.0.0.1', resolve));
    githubApi = `http://127.0.0.1:${(github.address() as AddressInfo).port}`;
    const running = await startServe(serveConfig([
      '--listen=127.0.0.1:0', '--metrics-listen=', '--sandbox', await deadRegistryFlag(),
      '--skills-repositories=https://github.com/example/skills', `--skills-github-api=${githubApi}`,
    ], {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=test%20key',
      OTEL_RESOURCE_ATTRIBUTES: 'k8s.namespace.name=agent-platform', OTEL_BSP_SCHEDULE_DELAY: '50',
    }), createLogger({
      level: 'debug',
      destination: new Writable({
        write(chunk: Buffer, _enc, done) {
          for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
          done();
        },
      }),
    }));
    const traceparent = `00-${TRACE_ID}-${PARENT_ID}-01`;
    const created = await fetch(`${running.base}/api/v1/agents`, {
      method: 'POST', headers: { 'content-type': 'application/json', traceparent },
      body: JSON.stringify({ name: 'traced', modelConfig: 'default-model-config', toolset: ['preset:none'] }),
    });
    expect(created.status).toBe(201);
    // The history operations, each in a trace of its own request.
    const agent = `${running.base}/api/v1/agents/kagent/traced`;
    const json = { 'content-type': 'application/json' };
    expect((await fetch(agent, { method: 'PATCH', headers: json, body: '{"description":"v2"}' })).status).toBe(200);
    expect((await fetch(`${agent}/revisions`)).status).toBe(200);
    expect((await fetch(`${agent}/revisions/1`)).status).toBe(200);
    expect((await fetch(`${agent}/rollback`, { method: 'POST', headers: json, body: '{"revision":1}' })).status).toBe(200);
    await (await fetch(`${running.base}/api/v1/skills`)).text();
    await (await fetch(`${running.base}/readyz`)).text();
    // Shutdown exports whatever is still batched.
    await running.close();
    spans = receiver.spans;
  });
  afterAll(async () => {
    github?.closeAllConnections();
    await new Promise((resolve) => github?.close(resolve));
    await receiver?.close();
  });

  const one = (predicate: (s: ReceivedSpan) => boolean, what: string): ReceivedSpan => {
    const found = spans.filter(predicate);
    if (found.length !== 1) throw new Error(`${what}: ${found.length} spans among ${spans.map((s) => s.name).join(', ')}`);
    return found[0]!;
  };

  it('continues the incoming traceparent with a server span named after the route pattern', () => {
    const server = one((s) => s.name === 'POST /api/v1/agents', 'the create request');
    expect(server).toMatchObject({ traceId: TRACE_ID, parentSpanId: PARENT_ID, kind: SERVER });
    expect(server.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.route': '/api/v1/agents', 'http.response.status_code': 201 });
    expect(server.resource).toMatchObject({ 'service.name': 'agent-manager', 'k8s.namespace.name': 'agent-platform' });
  });

  it('puts the operation under the request and every Kubernetes call under the operation', () => {
    const server = one((s) => s.name === 'POST /api/v1/agents', 'the create request');
    const operation = one((s) => s.name === 'create_agent', 'the operation');
    expect(operation).toMatchObject({ traceId: TRACE_ID, parentSpanId: server.spanId });
    const kube = spans.filter((s) => s.name.startsWith('kube ') && s.parentSpanId === operation.spanId);
    expect(kube.map((s) => s.name)).toContain('kube create helmreleases');
    const write = kube.find((s) => s.name === 'kube create helmreleases')!;
    expect(write).toMatchObject({ kind: CLIENT, traceId: TRACE_ID });
    expect(write.attributes).toMatchObject({ 'k8s.resource': 'helmreleases', 'http.response.status_code': 201 });
  });

  it('traces the GitHub and chart registry requests as client spans', () => {
    const skills = one((s) => s.name === 'GET /api/v1/skills', 'the skills request');
    const listSkills = one((s) => s.name === 'list_skills' && s.parentSpanId === skills.spanId, 'the list_skills operation');
    const githubCalls = spans.filter((s) => s.attributes['agent_manager.peer'] === 'github');
    expect(githubCalls.length).toBeGreaterThan(0);
    expect(githubCalls.every((s) => s.traceId === listSkills.traceId && s.kind === CLIENT)).toBe(true);
    expect(githubCalls[0]!.attributes).toMatchObject({ 'http.request.method': 'GET', 'http.response.status_code': 404 });
    const registry = spans.filter((s) => s.attributes['agent_manager.peer'] === 'registry');
    expect(registry.length).toBeGreaterThan(0);
    expect(registry[0]!.status?.code).toBe(2);
  });

  it.each([
    ['list_agent_revisions', '/api/v1/agents/:namespace/:name/revisions'],
    ['get_agent_revision', '/api/v1/agents/:namespace/:name/revisions/:revision'],
    ['rollback_agent', '/api/v1/agents/:namespace/:name/rollback'],
  ])('traces %s as an operation span under its request, like every other operation', (tool, route) => {
    const operation = one((s) => s.name === tool, tool);
    const server = one((s) => s.spanId === operation.parentSpanId, `the request of ${tool}`);
    expect(server).toMatchObject({ kind: SERVER, traceId: operation.traceId });
    expect(server.attributes).toMatchObject({ 'http.route': route, 'http.response.status_code': 200 });
    expect(operation.attributes).toMatchObject({ 'agent_manager.operation': tool });
  });

  it('puts the rollback\'s release write and its revision record under the rollback span', () => {
    const rollback = one((s) => s.name === 'rollback_agent', 'rollback_agent');
    const kube = spans.filter((s) => s.name.startsWith('kube ') && s.parentSpanId === rollback.spanId).map((s) => s.name);
    expect(kube).toContain('kube create controllerrevisions');
    expect(kube.some((name) => / helmreleases$/.test(name) && !name.startsWith('kube get') && !name.startsWith('kube list'))).toBe(true);
  });

  it('writes the trace_id and span_id of the active span on every log line of a traced request', () => {
    const server = one((s) => s.name === 'POST /api/v1/agents', 'the create request');
    const access = lines.find((l) => l.msg === 'POST /api/v1/agents 201');
    expect(access).toMatchObject({ trace_id: TRACE_ID, span_id: server.spanId });
    const ofRequest = lines.filter((l) => l.requestId === access!.requestId);
    expect(ofRequest.length).toBeGreaterThan(0);
    const known = new Set(spans.filter((s) => s.traceId === TRACE_ID).map((s) => s.spanId));
    for (const line of ofRequest) {
      expect(line.trace_id, String(line.msg)).toBe(TRACE_ID);
      expect(known.has(line.span_id as string), `${String(line.msg)}: span ${String(line.span_id)} is one of the trace's`).toBe(true);
    }
    expect(lines.find((l) => l.msg === 'listening')).not.toHaveProperty('trace_id');
  });

  it('leaves the probes out and sends the configured OTLP headers', () => {
    expect(spans.some((s) => s.name.includes('readyz'))).toBe(false);
    expect(receiver.exports.length).toBeGreaterThan(0);
    expect(receiver.exports.every((h) => h['x-api-key'] === 'test key')).toBe(true);
  });
});
