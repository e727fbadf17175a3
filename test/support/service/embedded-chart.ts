/**
 * A ChartSchemaSource that always answers with the embedded agent chart schema, for
 * service and transport tests that are not about the registry (the Go tests' fake
 * `embeddedChart{}`).
 */
import { embeddedSchema } from '../../../src/chart/embedded/embedded-schemas.js';
import type { ChartLine } from '../../../src/core/chart-lines/major-line.js';
import type { ChartInfo } from '../../../src/core/types.js';
import type { ChartSchemaSource, ResolvedSchema } from '../../../src/service/ports.js';

export class EmbeddedChartSource implements ChartSchemaSource {
  constructor(private readonly ociUrl = 'oci://gsoci.azurecr.io/charts/giantswarm/agent', private readonly semver = '0.x') {}

  async schema(line: ChartLine = '0.x'): Promise<ResolvedSchema> {
    return { ...embeddedSchema(line), source: 'embedded' };
  }

  async info(line: ChartLine = '0.x'): Promise<ChartInfo> {
    const semver = line === '0.x' ? this.semver : line;
    return { ociUrl: this.ociUrl, semver, schemaVersion: embeddedSchema(line).version, schemaSource: 'embedded' };
  }
}
