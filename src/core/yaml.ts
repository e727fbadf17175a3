/**
 * YAML rendering of composed objects, for people reading `manifests` and for
 * commit-mode files. Keys are sorted alphabetically, as sigs.k8s.io/yaml (the Go
 * service's renderer) sorts them, so the output is stable and diffs stay small.
 *
 * YAML 1.1 quoting rules are used on purpose: kubectl and Flux read manifests with a
 * YAML 1.1 parser, where an unquoted `on`, `yes` or `y` would turn a string label
 * into a boolean. YAML 1.2 readers (the `yaml` package, kustomize, kubectl's newer
 * paths) resolve a few plain words that 1.1 does not, so those are quoted as well: every
 * string we write reads back as the same string under both.
 */
import { Document, isScalar, Scalar, visit } from 'yaml';

/**
 * Plain words the YAML 1.2 core schema resolves to a non-string (null, bool, int, float).
 * The 1.1 quoting rules already cover most of them; `0o17` (a 1.2 octal) is what they
 * miss, and the rest cost nothing to list.
 */
const NOT_A_STRING_IN_1_2 =
  /^(?:|null|Null|NULL|~|true|True|TRUE|false|False|FALSE|[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;

/** Renders a plain JSON-like object as block YAML with sorted keys. */
export function toYaml(obj: unknown): string {
  const doc = new Document(obj, {
    version: '1.1',
    sortMapEntries: true,
    // A value reused in two places is written twice, never as an anchor and alias.
    aliasDuplicateObjects: false,
  });
  visit(doc, {
    Scalar(_key, node) {
      if (isScalar(node) && typeof node.value === 'string' && NOT_A_STRING_IN_1_2.test(node.value)) node.type = Scalar.QUOTE_DOUBLE;
    },
  });
  return doc.toString({
    // Sequences start at their key's indentation, as sigs.k8s.io/yaml writes them.
    indentSeq: false,
    // Never fold long strings (system prompts, descriptions) across lines.
    lineWidth: 0,
  });
}
