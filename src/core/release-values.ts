/**
 * A HelmRelease's `spec.values` as agent-manager can use them: absent, or a JSON object (Helm values
 * are a map; the CRD keeps any JSON there, so a hand-applied release may hold a string or a list).
 * Values of another kind are reported, never read as empty: read as `{}` they would show an agent
 * with implicit full access and no model, and a merge into them would replace what is there.
 */

/** Why `values` cannot be read as Helm values (`a string, not an object`); undefined when they can. */
export function valuesShapeProblem(values: unknown): string | undefined {
  if (values === undefined || values === null) return undefined;
  if (typeof values === 'object' && !Array.isArray(values)) return undefined;
  const kind = Array.isArray(values) ? 'a list' : `a ${typeof values}`;
  return `spec.values is ${kind}, not an object of Helm values`;
}
