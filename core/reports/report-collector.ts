import type { Plan } from '../generation/plan-types.js';
import { CHUNK_OBSERVER_URL } from './observer-url.js';
import { buildReport, type DatasetReport } from './report.js';
import type { ChunkStatistics } from './statistics/chunk-statistics.js';
import { TableStatisticsMerger } from './table-statistics.js';

/** What a table's generation is given to have its chunks observed (the pool's `statistics` option). */
export interface StatisticsOption {
  url: string;
  onChunk: (statistics: unknown, chunk: number) => void;
}

/** Gathers the statistics of a job's tables as they are generated, and makes the report of them at the end. */
export class ReportCollector {
  private readonly tables: { name: string; merger: TableStatisticsMerger }[] = [];

  constructor(private readonly plan: Plan) {}

  /** The option for one table's generation; a table generated again (a new attempt) starts afresh. */
  statisticsFor(table: string): StatisticsOption {
    const merger = new TableStatisticsMerger();
    const at = this.tables.findIndex((entry) => entry.name === table);
    if (at >= 0) this.tables[at] = { name: table, merger };
    else this.tables.push({ name: table, merger });
    return {
      url: CHUNK_OBSERVER_URL,
      onChunk: (statistics, chunk) => merger.add(statistics as ChunkStatistics, chunk),
    };
  }

  report(): DatasetReport {
    return buildReport({
      sector: this.plan.sector,
      seed: this.plan.seed,
      tables: this.tables.map(({ name, merger }) => ({ name, statistics: merger.result() })),
    });
  }
}

/** The report as stored: JSON, with the same bytes for the same plan. */
export function reportBytes(report: DatasetReport): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(report));
}
