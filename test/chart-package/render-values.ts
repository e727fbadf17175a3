/**
 * Rendering the chart in a test as helm would install it: values over the defaults,
 * checked against values.schema.json first, and the pieces of the result the suites read
 * (the container, the env a pod would see, the arguments parsed by the service's own
 * parseConfig, a refusal's own message).
 */
import { expect } from 'vitest';
import { parseConfig } from '../../src/config/index.js';
import { CHART_DIR, defaultValues, valuesValidator } from './chart-files.js';
import { TemplateError } from './gotpl/exec.js';
import { coalesce, one, renderChart, type Rendered } from './gotpl/render-chart.js';

/** The release namespace of every render. */
export const NS = 'agent-platform';

const validate = valuesValidator();

/** Render with `values` over the defaults, after checking them against the schema as helm does. */
export function render(values: Record<string, unknown> = {}, releaseName = 'agent-manager'): Rendered {
  expect(validate(coalesce(defaultValues(), values))).toEqual([]);
  return renderChart(CHART_DIR, { releaseName, namespace: NS, values });
}

/** The schema's complaints about `values` over the defaults; empty when they are valid. */
export function schemaErrors(values: Record<string, unknown>): string[] {
  return validate(coalesce(defaultValues(), values));
}

/** The render failure's own message (a fail or required text). */
export function failure(values: Record<string, unknown>): string {
  try {
    renderChart(CHART_DIR, { namespace: NS, values });
  } catch (err) {
    if (err instanceof TemplateError) return err.reason;
    throw err;
  }
  throw new Error('the chart rendered');
}

/** The Deployment's pod spec. */
export function podSpec(rendered: Rendered): Record<string, any> {
  return (one(rendered, 'Deployment') as any).spec.template.spec;
}

/** The agent-manager container. */
export function container(rendered: Rendered): Record<string, any> {
  return podSpec(rendered).containers[0];
}

/** The env a pod would see: literal values, and each secret key as "<secret>/<key>". */
export function podEnv(rendered: Rendered): Record<string, string> {
  const env: Record<string, string> = {};
  for (const e of container(rendered).env ?? []) {
    env[e.name] = e.value ?? `${e.valueFrom.secretKeyRef.name}/${e.valueFrom.secretKeyRef.key}`;
  }
  return env;
}

/** parseConfig over the rendered container args and env. */
export function parsedServe(rendered: Rendered) {
  const args: string[] = container(rendered).args;
  const result = parseConfig(args, podEnv(rendered));
  if (result.kind !== 'serve') throw new Error(`the rendered args do not parse: ${JSON.stringify(result)}`);
  return result.config;
}
