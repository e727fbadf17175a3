/**
 * The chart's optional PrometheusRule: rendered by the real helm, its
 * rule groups pass `promtool check rules`, and `promtool test rules` proves each alert fires
 * on the series that should fire it (after its `for`) and stays quiet on healthy ones.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { prometheusTestMode, promtool } from '../support/prometheus.js';
import { ROOT } from './chart-files.js';
import { type Manifest } from './helm.js';
import { failure, render } from './render-values.js';

const NS = 'agent-platform';
const JOB = 'agent-manager';
const prometheus = prometheusTestMode();
if (prometheus.mode === 'skip') console.warn(`SKIPPED PrometheusRule promtool tests: ${prometheus.reason}`);

const ALERTS = ['AgentManagerChartSchemaFallback', 'AgentManagerHighErrorRate', 'AgentManagerKubernetesAPIErrors', 'AgentManagerTargetDown', 'AgentManagerAbsent'];

interface Rule {
  alert: string;
  expr: string;
  for: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

function renderRule(
  values: Record<string, unknown> = {},
): Manifest & { spec: { groups: { name: string; rules: Rule[] }[] } } {
  const rendered = render({ prometheusRule: { enabled: true, ...values } });
  const rule = rendered.manifests.find((m) => m.kind === 'PrometheusRule');
  if (!rule) throw new Error('no PrometheusRule rendered');
  return rule as never;
}

describe('the chart PrometheusRule', () => {
  it('is not rendered by default', () => {
    const rendered = render();
    expect(rendered.manifests.some((m) => m.kind === 'PrometheusRule')).toBe(false);
  });

  it('needs metrics.enabled', () => {
    expect(failure({ prometheusRule: { enabled: true }, metrics: { enabled: false } })).toBe("prometheusRule.enabled needs metrics.enabled: its alerts read agent-manager's metrics");
  });

  it('alerts on the schema fallback, the 5xx ratio, Kubernetes API errors, a target down and no target, scoped to this release', () => {
    const sel = `job="${JOB}",namespace="${NS}"`;
    const rules = renderRule().spec.groups[0]!.rules;
    expect(rules.map((r) => r.alert)).toEqual(ALERTS);
    for (const r of rules) expect(r.expr).toContain(`job="${JOB}",namespace="${NS}"`);
    expect(rules[0]!.for).toBe('15m');
    expect(rules.find((r) => r.alert === 'AgentManagerAbsent')!.expr).toBe(`max by (job, namespace) (up{${sel}}) == 0 or absent(up{${sel}})`);
  });

  it('gives every alert a summary, a description and a runbook_url to its own section of docs/operations.md', () => {
    const doc = readFileSync(`${ROOT}docs/operations.md`, 'utf8');
    // GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens.
    const anchors = new Set([...doc.matchAll(/^#{2,4} (.+)$/gm)].map((m) => m[1]!.toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-')));
    for (const r of renderRule().spec.groups[0]!.rules) {
      expect(r.annotations.summary, r.alert).toMatch(/\w{3,}/);
      expect(r.annotations.description, r.alert).toMatch(/\w{3,}/);
      expect(r.annotations.runbook_url).toBe(`https://github.com/giantswarm/agent-manager/blob/main/docs/operations.md#${r.alert.toLowerCase()}`);
      expect(anchors.has(r.alert.toLowerCase()), `docs/operations.md has a section ${r.alert}`).toBe(true);
    }
  });

  it('points the runbooks at prometheusRule.runbookBaseURL', () => {
    const rules = renderRule({ runbookBaseURL: 'https://wiki.example.io/agent-manager/' }).spec.groups[0]!.rules;
    expect(rules.map((r) => r.annotations.runbook_url)).toEqual(ALERTS.map((a) => `https://wiki.example.io/agent-manager#${a.toLowerCase()}`));
  });
});

describe.skipIf(prometheus.mode === 'skip')('the chart PrometheusRule under promtool', () => {
  const dir = mkdtempSync(join(tmpdir(), 'prometheus-rule-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const sel = `job="${JOB}",namespace="${NS}"`;

  function writeRules(): Rule[] {
    if (prometheus.mode === 'fail') throw new Error(`CI needs promtool: ${prometheus.reason}`);
    const { spec } = renderRule();
    writeFileSync(join(dir, 'rules.yaml'), stringify({ groups: spec.groups }));
    return spec.groups[0]!.rules;
  }

  it('passes promtool check rules', () => {
    writeRules();
    const { status, output } = promtool(['check', 'rules', join(dir, 'rules.yaml')]);
    expect(output).toContain(`SUCCESS: ${ALERTS.length} rules found`);
    expect(status).toBe(0);
  });

  it('fires each alert on the series that should, after its for, and not on healthy series (promtool test rules)', () => {
    const rules = writeRules();
    const byName = Object.fromEntries(rules.map((r) => [r.alert, r]));
    const fired = (name: string, labels: Record<string, string>) => [
      { exp_labels: { ...byName[name]!.labels, ...labels }, exp_annotations: byName[name]!.annotations },
    ];
    const tests = {
      rule_files: ['rules.yaml'],
      evaluation_interval: '1m',
      tests: [
        {
          interval: '1m',
          input_series: [
            { series: `agent_manager_chart_schema_source{${sel},pod="stuck",source="embedded"}`, values: '1x40' },
            { series: `agent_manager_chart_schema_source{${sel},pod="healthy",source="embedded"}`, values: '0x40' },
            { series: `http_server_request_duration_seconds_count{${sel},method="POST",route="/api/v1/agents",code="502",status="502"}`, values: '0+6x40' },
            { series: `http_server_request_duration_seconds_count{${sel},method="GET",route="/api/v1/agents",code="200",status="200"}`, values: '0+10x40' },
            { series: `agent_manager_kube_request_duration_seconds_count{${sel},verb="get",resource="helmreleases",code="error"}`, values: '0+3x40' },
            { series: `agent_manager_kube_request_duration_seconds_count{${sel},verb="get",resource="helmreleases",code="200"}`, values: '0+10x40' },
            { series: `up{${sel},instance="10.0.0.1:9464",pod="crashing"}`, values: '1x5 0x20' },
            { series: `up{${sel},instance="10.0.0.2:9464",pod="healthy"}`, values: '1x40' },
          ],
          alert_rule_test: [
            { eval_time: '14m', alertname: 'AgentManagerChartSchemaFallback', exp_alerts: [] },
            { eval_time: '16m', alertname: 'AgentManagerChartSchemaFallback', exp_alerts: fired('AgentManagerChartSchemaFallback', { namespace: NS, pod: 'stuck' }) },
            { eval_time: '5m', alertname: 'AgentManagerHighErrorRate', exp_alerts: [] },
            { eval_time: '20m', alertname: 'AgentManagerHighErrorRate', exp_alerts: fired('AgentManagerHighErrorRate', { namespace: NS }) },
            { eval_time: '20m', alertname: 'AgentManagerKubernetesAPIErrors', exp_alerts: fired('AgentManagerKubernetesAPIErrors', { namespace: NS }) },
            { eval_time: '9m', alertname: 'AgentManagerTargetDown', exp_alerts: [] },
            {
              eval_time: '12m', alertname: 'AgentManagerTargetDown',
              exp_alerts: [{
                exp_labels: { ...byName.AgentManagerTargetDown!.labels, job: JOB, namespace: NS, instance: '10.0.0.1:9464', pod: 'crashing' },
                exp_annotations: {
                  ...byName.AgentManagerTargetDown!.annotations,
                  summary: 'Prometheus cannot scrape agent-manager pod crashing',
                  description: byName.AgentManagerTargetDown!.annotations.description!.replace('{{ $labels.instance }}', '10.0.0.1:9464'),
                },
              }],
            },
            { eval_time: '20m', alertname: 'AgentManagerAbsent', exp_alerts: [] },
          ],
        },
        {
          // Every pod down, then no series at all: the release is absent either way.
          interval: '1m',
          input_series: [
            { series: `up{${sel},instance="10.0.0.1:9464",pod="a"}`, values: '1x3 0x10 _x20' },
          ],
          alert_rule_test: [
            { eval_time: '3m', alertname: 'AgentManagerAbsent', exp_alerts: [] },
            { eval_time: '10m', alertname: 'AgentManagerAbsent', exp_alerts: fired('AgentManagerAbsent', { job: JOB, namespace: NS }) },
            { eval_time: '30m', alertname: 'AgentManagerAbsent', exp_alerts: fired('AgentManagerAbsent', { job: JOB, namespace: NS }) },
          ],
        },
        {
          interval: '1m',
          input_series: [
            { series: `http_server_request_duration_seconds_count{${sel},method="GET",route="/api/v1/agents",code="200",status="200"}`, values: '0+10x40' },
            { series: `http_server_request_duration_seconds_count{${sel},method="GET",route="/api/v1/agents",code="503",status="503"}`, values: '0+0x40' },
            // A drain: /readyz answers 503 so load balancers stop sending; no server error.
            { series: `http_server_request_duration_seconds_count{${sel},method="GET",route="/readyz",code="503",status="503"}`, values: '0+30x40' },
            { series: `agent_manager_kube_request_duration_seconds_count{${sel},verb="list",resource="pods",code="200"}`, values: '0+10x40' },
            { series: `agent_manager_chart_schema_source{${sel},pod="p",source="registry"}`, values: '1x40' },
            { series: `up{${sel},instance="10.0.0.1:9464",pod="p"}`, values: '1x40' },
          ],
          alert_rule_test: [
            { eval_time: '30m', alertname: 'AgentManagerChartSchemaFallback', exp_alerts: [] },
            { eval_time: '30m', alertname: 'AgentManagerHighErrorRate', exp_alerts: [] },
            { eval_time: '30m', alertname: 'AgentManagerKubernetesAPIErrors', exp_alerts: [] },
            { eval_time: '30m', alertname: 'AgentManagerTargetDown', exp_alerts: [] },
            { eval_time: '30m', alertname: 'AgentManagerAbsent', exp_alerts: [] },
          ],
        },
        {
          // A portal calling sessions and skills where they are not offered: half the answers are
          // 501 unsupported, the caller's question and no failure, so nobody is paged for it.
          interval: '1m',
          input_series: [
            { series: `http_server_request_duration_seconds_count{${sel},method="GET",route="/api/v1/agents",code="200",status="200"}`, values: '0+10x40' },
            { series: `http_server_request_duration_seconds_count{${sel},method="POST",route="/api/v1/agents/:namespace/:name/sessions",code="501",status="501"}`, values: '0+6x40' },
            { series: `http_server_request_duration_seconds_count{${sel},method="GET",route="/api/v1/skills",code="501",status="501"}`, values: '0+4x40' },
          ],
          alert_rule_test: [
            { eval_time: '30m', alertname: 'AgentManagerHighErrorRate', exp_alerts: [] },
          ],
        },
      ],
    };
    writeFileSync(join(dir, 'tests.yaml'), stringify(tests));
    const { status, output } = promtool(['test', 'rules', join(dir, 'tests.yaml')]);
    expect(output).toContain('SUCCESS');
    expect(status).toBe(0);
  });
});
