/**
 * The chart's private-registry values: how agent-manager logs in to the chart registry
 * (a mounted dockerconfigjson Secret, a user name and password, or a token, each from a
 * Secret), and what every composed OCIRepository carries (secretRef, provider). Rendered by
 * the real helm; the arguments and env are parsed by the service's parseConfig.
 */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/index.js';
import { one, type Rendered } from './helm.js';
import { failure, render as renderValues, schemaErrors } from './render-values.js';

function render(agentChart: Record<string, unknown>): Rendered {
  return renderValues({ agentChart });
}

function pod(rendered: Rendered): Record<string, any> {
  return (one(rendered, 'Deployment') as any).spec.template.spec;
}

function parsed(rendered: Rendered) {
  const c = pod(rendered).containers[0];
  const env: Record<string, string> = {};
  for (const e of c.env ?? []) env[e.name] = e.value ?? `${e.valueFrom.secretKeyRef.name}/${e.valueFrom.secretKeyRef.key}`;
  const result = parseConfig(c.args, env);
  if (result.kind !== 'serve') throw new Error(JSON.stringify(result));
  return { config: result.config, env };
}

describe('chart values for a private agent chart registry', () => {
  it('by default reads anonymously and writes neither secretRef nor a provider', () => {
    const { config } = parsed(render({}));
    expect(config.chart).toMatchObject({ auth: { dockerConfig: '', username: '', password: '', token: '' }, secretRef: '', provider: 'generic' });
  });

  it('mounts a dockerconfigjson Secret as a directory (so rotation reaches the pod) and passes it as --agent-chart-docker-config', () => {
    const rendered = render({ auth: { dockerConfigSecret: 'chart-pull' } });
    const spec = pod(rendered);
    expect(spec.volumes).toContainEqual({ name: 'chart-registry', secret: { secretName: 'chart-pull', items: [{ key: '.dockerconfigjson', path: '.dockerconfigjson' }] } });
    expect(spec.containers[0].volumeMounts).toContainEqual({ name: 'chart-registry', mountPath: '/etc/agent-manager/chart-registry', readOnly: true });
    expect(parsed(rendered).config.chart.auth.dockerConfig).toBe('/etc/agent-manager/chart-registry/.dockerconfigjson');
  });

  it('passes a user name and password from a Secret through AGENT_CHART_USERNAME and AGENT_CHART_PASSWORD', () => {
    const { env } = parsed(render({ auth: { basicAuthSecret: { name: 'reg-login', usernameKey: 'user', passwordKey: 'pass' } } }));
    expect(env).toMatchObject({ AGENT_CHART_USERNAME: 'reg-login/user', AGENT_CHART_PASSWORD: 'reg-login/pass' });
  });

  it('passes a token from a Secret through AGENT_CHART_TOKEN', () => {
    const { env } = parsed(render({ auth: { tokenSecret: { name: 'reg-token' } } }));
    expect(env).toMatchObject({ AGENT_CHART_TOKEN: 'reg-token/token' });
  });

  it('writes the OCIRepository pull Secret and cloud provider into the service arguments', () => {
    const { config } = parsed(render({ ociRepository: { secretRef: 'agent-chart-pull', provider: 'azure' } }));
    expect(config.chart).toMatchObject({ secretRef: 'agent-chart-pull', provider: 'azure' });
  });

  it('refuses two ways to log in at once', () => {
    const reason = failure({ agentChart: { auth: { dockerConfigSecret: 'a', tokenSecret: { name: 'b' } } } });
    expect(reason).toBe('agentChart.auth: set only one of dockerConfigSecret, basicAuthSecret.name and tokenSecret.name (each is a way to log in to the chart registry)');
  });

  it('refuses a provider Flux does not know and a Secret name Kubernetes would not take', () => {
    expect(schemaErrors({ agentChart: { ociRepository: { provider: 'oracle' } } })).not.toEqual([]);
    expect(schemaErrors({ agentChart: { ociRepository: { secretRef: 'Bad_Name' } } })).not.toEqual([]);
  });
});
