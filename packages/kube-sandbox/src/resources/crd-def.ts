/**
 * The row of a custom resource in the resource table: what every CRD the sandbox serves shares
 * (namespaced, the standard verbs, a status subresource, DNS-subdomain names), so a kind's file
 * states only its names, schema and printer columns.
 */
import { STANDARD_VERBS, type ResourceDef } from './resource-def.js';

/** A custom resource's definition with the shared defaults. */
export const crd = (def: Omit<ResourceDef, 'custom' | 'verbs' | 'namespaced' | 'statusSubresource'
  | 'nameRule'>): ResourceDef =>
  ({ custom: true, verbs: STANDARD_VERBS, namespaced: true, statusSubresource: true, nameRule: 'subdomain', ...def });

/** The JSONPath of a condition's field in a printer column (`q` is the quote the CRD uses). */
export const ready = (q: string): string => `.status.conditions[?(@.type==${q}Ready${q})]`;
