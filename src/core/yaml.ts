/**
 * YAML rendering of composed objects, for people reading `manifests` and for
 * commit-mode files. Keys are sorted alphabetically, as sigs.k8s.io/yaml (the Go
 * service's renderer) sorts them, so the output is stable and diffs stay small.
 *
 * YAML 1.1 quoting rules are used on purpose: kubectl and Flux read manifests with a
 * YAML 1.1 parser, where an unquoted `on`, `yes` or `y` would turn a string label
 * into a boolean. 1.1-safe output reads back identically under YAML 1.2.
 */
import { stringify } from 'yaml';

/** Renders a plain JSON-like object as block YAML with sorted keys. */
export function toYaml(obj: unknown): string {
  return stringify(obj, {
    version: '1.1',
    sortMapEntries: true,
    // Sequences start at their key's indentation, as sigs.k8s.io/yaml writes them.
    indentSeq: false,
    // Never fold long strings (system prompts, descriptions) across lines.
    lineWidth: 0,
    // A value reused in two places is written twice, never as an anchor and alias.
    aliasDuplicateObjects: false,
  });
}
