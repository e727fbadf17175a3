/**
 * RBAC from the stored Roles, ClusterRoles and bindings, evaluated on every request as kube-apiserver's
 * RBAC authorizer does: ClusterRoleBindings, then the namespace's RoleBindings; a subject matches the
 * user, a group or the service account; a rule matches verbs, groups, resources (`*`, subresources) and
 * names, or nonResourceURLs. `system:masters` is always allowed (the privileged-group authorizer). A denial
 * names RBAC's reason only for a binding to a missing role, as the real one; aggregation is not expanded.
 */
import { isObject, stringsOf, type JsonObject } from '../api/json.js';
import type { OpsEnv, UserInfo } from '../ops/op-options.js';
import { clusterrolebindings, clusterroles, rolebindings, roles } from '../resources/builtin-apps-rbac.js';
import { ALL_RULES, type AuthorizationAttributes, type Authorizer, type Decision,
  type SubjectRules } from './authorizer.js';

/** The group whose members bypass RBAC (cluster-admin by membership). */
export const PRIVILEGED_GROUP = 'system:masters';

const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** One PolicyRule as read from a stored role (missing or malformed fields read as empty lists). */
export interface PolicyRule {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames: string[];
  nonResourceURLs: string[];
}

/** The rules of a stored Role or ClusterRole. */
export function rulesOf(role: JsonObject): PolicyRule[] {
  const rules = Array.isArray(role.rules) ? role.rules.filter(isObject) : [];
  return rules.map((r) => ({
    verbs: stringsOf(r.verbs), apiGroups: stringsOf(r.apiGroups), resources: stringsOf(r.resources),
    resourceNames: stringsOf(r.resourceNames), nonResourceURLs: stringsOf(r.nonResourceURLs),
  }));
}

const has = (list: readonly string[], value: string): boolean => list.includes('*') || list.includes(value);

/** rbac/v1 ResourceMatches: `*`, the exact `resource[/subresource]`, or `*\/subresource`. */
function resourceMatches(rule: PolicyRule, resource: string, subresource: string): boolean {
  const combined = subresource ? `${resource}/${subresource}` : resource;
  return rule.resources.some((r) => r === '*' || r === combined || (subresource !== '' && r === `*/${subresource}`));
}

/** rbac/v1 NonResourceURLMatches: `*`, the exact path, or a `prefix*` rule. */
function nonResourceMatches(rule: PolicyRule, path: string): boolean {
  return rule.nonResourceURLs.some((u) =>
    u === '*' || u === path || (u.endsWith('*') && path.startsWith(u.slice(0, -1))));
}

/** Whether one rule allows the request. */
export function ruleAllows(a: AuthorizationAttributes, rule: PolicyRule): boolean {
  if (!has(rule.verbs, a.verb)) return false;
  if (!a.isResourceRequest) return nonResourceMatches(rule, a.path);
  if (!has(rule.apiGroups, a.apiGroup) || !resourceMatches(rule, a.resource, a.subresource)) return false;
  // A rule naming objects never covers requests without a name (list, create, watch).
  return rule.resourceNames.length === 0 || rule.resourceNames.includes(a.name);
}

/** Whether a binding's subject list names the user; `namespace` is the binding's ('' for cluster bindings). */
export function subjectsInclude(binding: JsonObject, user: UserInfo, namespace: string): boolean {
  const subjects = Array.isArray(binding.subjects) ? binding.subjects.filter(isObject) : [];
  return subjects.some((s) => {
    const name = typeof s.name === 'string' ? s.name : '';
    switch (s.kind) {
      case 'User': return user.username === name;
      case 'Group': return user.groups.includes(name);
      case 'ServiceAccount': {
        const saNamespace = typeof s.namespace === 'string' && s.namespace ? s.namespace : namespace;
        return saNamespace !== '' && user.username === `system:serviceaccount:${saNamespace}:${name}`;
      }
      default: return false;
    }
  });
}

const ALLOW: Decision = { allowed: true };

/** The RBAC authorizer over a sandbox's stored objects (`--authorization rbac`). */
export class RbacAuthorizer implements Authorizer {
  constructor(private readonly env: OpsEnv) {}

  authorize(a: AuthorizationAttributes): Decision {
    if (a.user.groups.includes(PRIVILEGED_GROUP)) return ALLOW;
    const errors: string[] = [];
    for (const [, binding] of this.env.objects.list(clusterrolebindings, '')) {
      if (!subjectsInclude(binding, a.user, '')) continue;
      if (this.roleAllows(binding, '', a, errors)) return ALLOW;
    }
    if (a.namespace) {
      for (const [, binding] of this.env.objects.list(rolebindings, a.namespace)) {
        if (!subjectsInclude(binding, a.user, a.namespace)) continue;
        if (this.roleAllows(binding, a.namespace, a, errors)) return ALLOW;
      }
    }
    const reason = errors.length === 0 ? '' : `RBAC: ${errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`}`;
    return { allowed: false, reason };
  }

  /**
   * Every rule that applies to the user in the namespace (rbac's RulesFor), as
   * SelfSubjectRulesReview reports them; bindings naming a missing role give an
   * evaluation error, and the rest of the rules still count.
   */
  rulesFor(user: UserInfo, namespace: string): SubjectRules {
    if (user.groups.includes(PRIVILEGED_GROUP)) return ALL_RULES;
    const errors: string[] = [];
    const rules: PolicyRule[] = [];
    for (const [, binding] of this.env.objects.list(clusterrolebindings, '')) {
      if (subjectsInclude(binding, user, '')) rules.push(...(this.roleRules(binding, '', errors) ?? []));
    }
    if (namespace) {
      for (const [, binding] of this.env.objects.list(rolebindings, namespace)) {
        if (subjectsInclude(binding, user, namespace)) {
          rules.push(...(this.roleRules(binding, namespace, errors) ?? []));
        }
      }
    }
    const resourceRules = rules
      .filter((r) => r.resources.length > 0)
      .map((r) => ({
        verbs: r.verbs, apiGroups: r.apiGroups, resources: r.resources,
        ...(r.resourceNames.length > 0 ? { resourceNames: r.resourceNames } : {}),
      }));
    const nonResourceRules = rules
      .filter((r) => r.nonResourceURLs.length > 0)
      .map((r) => ({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs }));
    return { resourceRules, nonResourceRules, incomplete: false,
      ...(errors.length > 0 ? { evaluationError: errors.join(', ') } : {}) };
  }

  /** Resolve the binding's roleRef and test its rules; a missing role is remembered as an error. */
  private roleAllows(binding: JsonObject, namespace: string, a: AuthorizationAttributes, errors: string[]): boolean {
    return (this.roleRules(binding, namespace, errors) ?? []).some((rule) => ruleAllows(a, rule));
  }

  /** The rules of the role a binding names; undefined (and an error noted) when it does not exist. */
  private roleRules(binding: JsonObject, namespace: string, errors: string[]): PolicyRule[] | undefined {
    const ref = isObject(binding.roleRef) ? binding.roleRef : {};
    const name = typeof ref.name === 'string' ? ref.name : '';
    const clusterRole = ref.kind === 'ClusterRole';
    if (!clusterRole && (ref.kind !== 'Role' || !namespace)) return undefined;
    const role = clusterRole ? this.env.objects.get(clusterroles, '', name)
      : this.env.objects.get(roles, namespace, name);
    if (!role) {
      const message = `${clusterRole ? 'clusterrole' : 'role'}.${RBAC_GROUP} ${JSON.stringify(name)} not found`;
      if (!errors.includes(message)) errors.push(message);
      return undefined;
    }
    return rulesOf(role);
  }
}
