/**
 * YAML rendering of composed objects (`manifests`, commit-mode files), keys sorted as sigs.k8s.io/yaml
 * sorts them so output is stable. Strings are quoted for YAML 1.1 (kubectl and Flux read `on`, `yes`
 * as booleans) and for the plain words 1.2 readers resolve, so every string reads back the same in both.
 */
import { Document, isScalar, Scalar, visit } from 'yaml';
/**
 * Plain words the YAML 1.2 core schema resolves to a non-string (null, bool, int, float).
 * The 1.1 quoting rules already cover most of them; `0o17` (a 1.2 octal) is what they
 * miss, and the rest cost nothing to list.
 */
const NOT_A_STRING_IN_1_2 = new RegExp(`^(?:${[
    /|null|Null|NULL|~/, // tag:yaml.org,2002:null
    /true|True|TRUE|false|False|FALSE/, // bool
    /[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+/, // int: decimal, octal, hexadecimal
    /[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?/, // float
    /[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN/, // infinity and not-a-number
].map((tag) => tag.source).join('|')})$`);
/** Renders a plain JSON-like object as block YAML with sorted keys. */
export function toYaml(obj) {
    const doc = new Document(obj, {
        version: '1.1',
        sortMapEntries: true,
        // A value reused in two places is written twice, never as an anchor and alias.
        aliasDuplicateObjects: false,
    });
    visit(doc, {
        Scalar(_key, node) {
            if (isScalar(node) && typeof node.value === 'string' && NOT_A_STRING_IN_1_2.test(node.value)) {
                node.type = Scalar.QUOTE_DOUBLE;
            }
        },
    });
    return doc.toString({
        // Sequences start at their key's indentation, as sigs.k8s.io/yaml writes them.
        indentSeq: false,
        // Never fold long strings (system prompts, descriptions) across lines.
        lineWidth: 0,
    });
}
//# sourceMappingURL=yaml.js.map