/**
 * What a JSON request body may be sent as, for REST and MCP alike: `application/json` in UTF-8 (RFC 8259
 * allows no other charset), plainly or in one of the content codings Node undoes (RFC 9110 §8.4). Each
 * transport answers what does not fit with a 415 in its own envelope; reading text, forms or an unknown
 * coding as JSON would let any page write without a CORS preflight, or parse bytes as something else.
 */
import { MIMEType } from 'node:util';
import zlib from 'node:zlib';
import type { Transform } from 'node:stream';

/** The one media type request bodies are read as. */
export const JSON_MEDIA_TYPE = 'application/json';

/** The content codings body-parser undoes (zstd where this Node has it). */
export const CODINGS = ['gzip', 'deflate', 'br', ...('createZstdDecompress' in zlib ? ['zstd'] : [])];

/** What is wrong with a request's Content-Type for a JSON body, or undefined when it is JSON (or absent). */
export function contentTypeProblem(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const shown = JSON.stringify(header.slice(0, 100));
  let type: MIMEType;
  try {
    type = new MIMEType(header);
  } catch {
    return `the Content-Type ${shown} is not a media type; send the body as Content-Type: ${JSON_MEDIA_TYPE}`;
  }
  if (type.essence !== JSON_MEDIA_TYPE) {
    return `the body must be JSON sent as Content-Type: ${JSON_MEDIA_TYPE}, not ${shown}`;
  }
  const charset = type.params.get('charset')?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8') {
    return `a JSON body is UTF-8 (RFC 8259); send Content-Type: ${JSON_MEDIA_TYPE} without a charset or with ` +
      `charset=utf-8, not ${shown}`;
  }
  return undefined;
}

/** A decoder for `coding` (`x-gzip` is gzip, RFC 9110 §8.4.1.3), or undefined when it is not one of CODINGS. */
export function decompressor(coding: string): Transform | undefined {
  switch (coding) {
    case 'gzip':
    case 'x-gzip': return zlib.createGunzip();
    case 'deflate': return zlib.createInflate();
    case 'br': return zlib.createBrotliDecompress();
    case 'zstd': return 'createZstdDecompress' in zlib ? zlib.createZstdDecompress() : undefined;
    default: return undefined;
  }
}
