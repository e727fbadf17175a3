/**
 * Rendering the chart in a test as it would be installed: the real helm with values over
 * the defaults (helm checks them against values.schema.json first), and the pieces of the
 * result the suites read (the container, the env a pod would see, the arguments parsed by
 * the service's own parseConfig, a refusal's own message).
 */
import { parseConfig } from '../../src/config/index.js';
import { helmRefusal, helmTemplate, HelmRefusal, one, type Rendered } from './helm.js';

/** The release namespace of every render. */
export const NS = 'agent-platform';

/** `helm template` with `values` over the defaults. */
export function render(values: Record<string, unknown> = {}, releaseName = 'agent-manager'): Rendered {
  return helmTemplate(values, { releaseName, namespace: NS });
}

/** helm's schema errors for `values` (`at '/path': message` each); empty when helm renders them. */
export function schemaErrors(values: Record<string, unknown>): string[] {
  try {
    helmTemplate(values, { namespace: NS });
    return [];
  } catch (err) {
    if (!(err instanceof HelmRefusal)) throw err;
    return err.output.split('\n').map((line) => line.trim()).filter((line) => line.startsWith('- at ')).map((line) => line.slice(2));
  }
}

/** helm's refusal of `values`: a template's `fail` text, or its schema error list. */
export function failure(values: Record<string, unknown>): string {
  return helmRefusal(values, { namespace: NS }).reason;
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
