/**
 * The REST contract as a file: `api/openapi.yaml` at the package root, found relative
 * to this module so the same lookup works from src/ (tests, tsx) and dist/ (the built
 * service; the package ships `api/`). It is read once, on first use, and served as is.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
/** The path of api/openapi.yaml (three levels up from src/transport/rest or dist/transport/rest). */
export const DEFAULT_OPENAPI_PATH = fileURLToPath(new URL('../../../api/openapi.yaml', import.meta.url));
/** A reader of the document that reads the file once; a failed read is retried next time. */
export function openApiDocumentReader(path = DEFAULT_OPENAPI_PATH) {
    let cached;
    return () => {
        cached ??= readFile(path, 'utf8').catch((err) => {
            cached = undefined;
            throw err;
        });
        return cached;
    };
}
//# sourceMappingURL=openapi-document.js.map