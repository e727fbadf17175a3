/**
 * Content negotiation of responses: JSON, server-side tables (what `kubectl get` asks for), partial
 * object metadata and YAML (not for watches). Aggregated discovery is never chosen: legacy discovery is
 * what kubectl falls back to on plain `application/json`. Protobuf or other formats → 406.
 */
import { statusErrors } from '../api/status.js';

/** The representation a response should take. */
export type Representation =
  | { kind: 'json'; yaml?: true }
  | { kind: 'table'; version: 'v1' | 'v1beta1' }
  | { kind: 'partial'; version: 'v1' | 'v1beta1'; list: boolean };

interface MediaRange {
  type: string;
  params: Record<string, string>;
}

function parseAccept(header: string): MediaRange[] {
  return header.split(',').map((part) => {
    const [type = '', ...params] = part.split(';').map((s) => s.trim());
    return {
      type: type.toLowerCase(),
      params: Object.fromEntries(params.map((p) => {
        const [k = '', v = ''] = p.split('=');
        return [k.trim(), v.trim()];
      })),
    };
  }).filter((m) => m.type.length > 0);
}

const JSONISH = new Set(['application/json', '*/*', 'application/*']);

/** Choose how to represent a response for this Accept header. */
export function negotiate(accept: string | undefined, allowTables: boolean): Representation {
  if (!accept || !accept.trim()) return { kind: 'json' };
  for (const range of parseAccept(accept)) {
    if (range.type === 'application/yaml' && !range.params.as) return { kind: 'json', yaml: true };
    if (!JSONISH.has(range.type)) continue;
    const { as, g, v } = range.params;
    if (!as) return { kind: 'json' };
    if (g !== 'meta.k8s.io' || (v !== 'v1' && v !== 'v1beta1') || !allowTables) continue;
    if (as === 'Table') return { kind: 'table', version: v };
    if (as === 'PartialObjectMetadata' || as === 'PartialObjectMetadataList') {
      return { kind: 'partial', version: v, list: as === 'PartialObjectMetadataList' };
    }
  }
  throw statusErrors.notAcceptable();
}
