/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728), where MCP clients and muster learn whom to sign in
 * with. We run no authorization server, so the identity provider is named as the one. Two open
 * documents: `/.well-known/oauth-protected-resource` for `/api/v1`, and the same path followed by the
 * MCP path for the MCP endpoint (RFC 9728 §3.1), each with the `resource` it was derived from (§3.3).
 * One step answers both (GET, HEAD, a CORS preflight); every other request passes it untouched.
 */
import { sendCompactJson, type HttpRequest, type HttpResponse, type Step } from './exchange.js';

/** The well-known path prefix of RFC 9728. */
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

/** Scopes a client should ask the provider for; Google has no `groups` scope. */
export const DEFAULT_SCOPES: Record<'dex' | 'google', string[]> = {
  dex: ['openid', 'profile', 'email', 'groups'],
  google: ['openid', 'profile', 'email'],
};

/** The RFC 9728 document. */
export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers: string[];
  bearer_methods_supported: ['header'];
  scopes_supported?: string[];
  resource_name?: string;
}

export interface OAuthMetadataOptions {
  /** The service's public base URL (what clients call), e.g. `https://agent-manager.example.com`. */
  baseUrl: string;
  /** The issuer of the identity provider (Dex or Google): the authorization server. */
  issuer: string;
  /** Path of the MCP endpoint; default `/mcp`. */
  mcpPath?: string;
  /** Scopes to advertise; omitted from the document when undefined. */
  scopesSupported?: string[];
}

function trimSlash(value: string): string {
  return value.replace(/\/+$/, '');
}

/** The resource identifier of `resourcePath` under the base URL (the base URL itself for ''). */
export function resourceIdentifier(baseUrl: string, resourcePath = ''): string {
  return `${trimSlash(baseUrl)}${resourcePath}`;
}

/**
 * The metadata URL of a resource: the well-known path inserted between the origin and
 * the resource's path (RFC 9728 section 3.1). This is what a 401's `resource_metadata` names.
 */
export function protectedResourceMetadataUrl(baseUrl: string, resourcePath = ''): string {
  const base = new URL(trimSlash(baseUrl));
  return `${base.origin}${PROTECTED_RESOURCE_PATH}${trimSlash(base.pathname)}${resourcePath}`;
}

/** The document for one resource. */
export function protectedResourceMetadata(options: OAuthMetadataOptions, resourcePath = ''): ProtectedResourceMetadata {
  const doc: ProtectedResourceMetadata = {
    resource: resourceIdentifier(options.baseUrl, resourcePath),
    authorization_servers: [options.issuer],
    bearer_methods_supported: ['header'],
    resource_name: 'agent-manager',
  };
  if (options.scopesSupported) doc.scopes_supported = [...options.scopesSupported];
  return doc;
}

/** A document's path, as the step answers it, and its body. */
interface MetadataDocument {
  readonly path: string;
  readonly body: ProtectedResourceMetadata;
}

/**
 * The step serving both documents (run it before the guarded routes, outside the bearer guard). Paths
 * match as express's default router matched them: any case, one optional trailing slash.
 */
export function oauthMetadataRouter(options: OAuthMetadataOptions): Step {
  const basePath = trimSlash(new URL(trimSlash(options.baseUrl)).pathname);
  const mcpPath = options.mcpPath ?? '/mcp';
  const documents = new Map<string, MetadataDocument>();
  for (const resourcePath of ['', mcpPath]) {
    const path = `${PROTECTED_RESOURCE_PATH}${basePath}${resourcePath}`;
    documents.set(path.toLowerCase(), { path, body: protectedResourceMetadata(options, resourcePath) });
  }
  return (req: HttpRequest, res: HttpResponse): boolean | undefined => {
    const document = documentOf(documents, req.path);
    if (!document) return undefined;
    const method = req.method;
    if (method === 'OPTIONS') {
      req.route = document.path;
      allowAnyOrigin(res);
      res.setHeader('Access-Control-Allow-Methods', 'GET, OPTIONS');
      res.setHeader('Access-Control-Allow-Headers', '*');
      res.statusCode = 204;
      res.end();
      return true;
    }
    if (method !== 'GET' && method !== 'HEAD') return undefined;
    req.route = document.path;
    // Browser-based MCP clients read this document cross-origin.
    allowAnyOrigin(res);
    res.setHeader('Cache-Control', 'public, max-age=300');
    // Node writes no body for HEAD and keeps the headers, Content-Length included.
    sendCompactJson(res, 200, document.body);
    return true;
  };
}

/** The document whose path `path` is; cheap for every other path, which is nearly every request. */
function documentOf(documents: ReadonlyMap<string, MetadataDocument>, path: string): MetadataDocument | undefined {
  // Every document's path starts with `/.`; no other request pays for the case folding below.
  if (path.charCodeAt(1) !== 0x2e) return undefined;
  const exact = documents.get(path);
  if (exact) return exact;
  const folded = path.toLowerCase();
  return documents.get(folded) ?? (folded.endsWith('/') ? documents.get(folded.slice(0, -1)) : undefined);
}

function allowAnyOrigin(res: HttpResponse): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
}
