/**
 * The words of plan_migration, the portal's view of `agent-manager migrate`: kept apart from
 * tool-descriptions.ts, which holds the agent tools, and spread into its tables so both surfaces read one text.
 */

export const MIGRATION_TOOL = {
  plan_migration:
    'Read-only. The expand plan of `agent-manager migrate` for one namespace, to the other chart line than its ' +
    'shared source follows (0.x → 2.x, or back): per agent the action (move, propose as a pull request for a ' +
    'GitOps-owned release, report for one applied by someone else, unchanged, refused), the unified diff of its ' +
    'values, the notes (dropped keys, the runtime mapped to a Harness) and the refusals, each release validated ' +
    'against the target line\'s schema; writable says whether expand would write the namespace (it writes a ' +
    'namespace only when no agent is refused). Writes nothing: the migration itself runs from the CLI. dryRun ' +
    'must be true.',
} as const;

export const MIGRATION_TITLE = { plan_migration: 'Plan the migration of a namespace' } as const;

export const MIGRATION_ARGUMENTS = {
  migrationNamespace: "Namespace to plan; default: the installation's kagent namespace",
  migrationDryRun: 'Must be true: the plan is answered without writing; the migration runs from the CLI ' +
    '(agent-manager migrate)',
} as const;
