/**
 * The values schemas of both chart lines: one registry-backed source per line, each following its own one-major
 * range (the configured `--agent-chart-semver` for its line, `<major>.x` for the other) with that line's embedded
 * schema as its fallback. An agent is validated against the newest chart of its own line, so a namespace that has
 * not moved to 2.x keeps being judged by 0.x's schema while another has moved. A line is read from the registry
 * only once something asks for it.
 */
import type { ChartLine } from '../core/chart-lines/major-line.js';
import type { ChartInfo } from '../core/types.js';
import type { ChartSchemaSource, ResolvedSchema } from '../service/ports.js';
import { embeddedSchema } from './embedded/embedded-schemas.js';
import { lineOfRange } from './line-range.js';
import { RegistryChartSchemaSource, type RegistryChartSchemaSourceOptions } from './resolver.js';

/** The range a line's source follows: the configured one for its line, else the whole line. */
export function rangeForLine(line: ChartLine, configured: string): string {
  return lineOfRange(configured) === line ? configured : line;
}

/** Both lines' schema sources behind one ChartSchemaSource; `schema()` without a line is the configured line's. */
export class LineChartSchemaSources implements ChartSchemaSource {
  private readonly sources = new Map<ChartLine, RegistryChartSchemaSource>();
  /** The line new sources get (the configured range's). */
  readonly defaultLine: ChartLine;

  constructor(private readonly options: Omit<RegistryChartSchemaSourceOptions, 'embedded'>) {
    this.defaultLine = lineOfRange(options.semver) ?? '2.x';
  }

  private source(line: ChartLine): RegistryChartSchemaSource {
    let source = this.sources.get(line);
    if (!source) {
      source = new RegistryChartSchemaSource({
        ...this.options, semver: rangeForLine(line, this.options.semver), embedded: embeddedSchema(line),
      });
      this.sources.set(line, source);
    }
    return source;
  }

  schema(line: ChartLine = this.defaultLine): Promise<ResolvedSchema> {
    return this.source(line).schema();
  }

  info(line: ChartLine = this.defaultLine): Promise<ChartInfo> {
    return this.source(line).info();
  }

  close(): void {
    for (const source of this.sources.values()) source.close();
  }
}
