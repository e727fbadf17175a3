/**
 * The pull path for one chart version: manifest by tag → the Helm chart layer → its blob
 * (digest verified) → `<chart>/values.schema.json` out of the archive.
 */
import { MAX_CHART_ARCHIVE_BYTES, readValuesSchema } from './chart-archive.js';
import { helmChartLayer } from './registry-client.js';
/** The parsed values schema of the chart version `tag`; throws a text that names the chart version and what is
 * missing. */
export async function readChartSchema(client, tag, signal) {
    const manifest = await client.manifest(tag, signal);
    const layer = helmChartLayer(manifest, client.ref.repository, tag);
    const archive = await client.blob(layer, MAX_CHART_ARCHIVE_BYTES, signal);
    return readValuesSchema(archive, client.ref.chartName);
}
//# sourceMappingURL=read-chart-schema.js.map