import { randomInt } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { ProblemError } from '../core/problems.js';
import { loadConfig } from '../core/settings/settings.js';
import { createEngine, type Engine } from '../core/packs/engine.js';
import { packCatalog } from '../core/catalog/packs-for-configs.js';
import { readInlineConfig } from '../core/configs/config-input.js';
import { requireValidConfig } from '../core/configs/validate.js';
import { normaliseConfig } from '../core/configs/normalise.js';
import { withReferencedTables } from '../core/configs/referenced-tables.js';
import type { ConfigIssue } from '../core/configs/issues.js';
import { fileCompression, REPORT_FILE, resultFileName, writeResultFile } from '../core/jobs/result-files.js';
import type { Compression, OutputFormat } from '../core/jobs/events.js';
import { ReportCollector, reportBytes } from '../core/reports/report-collector.js';
import { reportPage } from '../core/reports/html.js';
import { UsageError } from './options.js';
import { Progress } from './progress.js';

export interface GenerateOptions {
  out: string;
  format?: OutputFormat;
  compression?: Compression;
  seed?: number;
  packs?: string[];
  quiet?: boolean;
}

/** Seeds drawn for configs that give none: the range a job of the service draws them from. */
const SEED_RANGE = 2 ** 31;

/**
 * `finsynth generate CONFIG --out DIR`: the dataset of a generation config, written locally with the engine and
 * pool a job uses, and through the same result-file writer, so that the same config and seed give the same bytes
 * as a job of the service. Nothing is stored and nothing is charged. A bad config is exit code 2 with each of its
 * problems located in the file; SIGINT and SIGTERM stop it, removing the table being written (completed tables
 * stay, each under its final name).
 */
export async function generate(configPath: string, options: GenerateOptions): Promise<number> {
  const text = await readConfigFile(configPath);
  const settings = loadConfig(process.env);
  const engine = await createEngine(
    { poolSize: settings.poolSize, packs: [...settings.packs, ...(options.packs ?? [])] },
    { warn: (message) => process.stderr.write(`finsynth generate: ${message}\n`) },
  );
  const stop = new AbortController();
  const interrupt = (signal: NodeJS.Signals) => stop.abort(new Interrupted(signal));
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  try {
    return await generateWith(engine, configPath, text, options, stop.signal);
  } catch (error) {
    if (error instanceof Interrupted || stop.signal.aborted) {
      const by = stop.signal.reason instanceof Interrupted ? stop.signal.reason.signal : 'a signal';
      process.stderr.write(
        `finsynth generate: stopped by ${by}; ` +
          'the table being written was removed, the tables already written are complete\n',
      );
      return 1;
    }
    if (error instanceof ProblemError && error.type.status < 500) {
      process.stderr.write(describeProblem(configPath, error));
      return 2;
    }
    throw error;
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
    await engine.close();
  }
}

async function generateWith(
  engine: Engine,
  configPath: string,
  text: string,
  options: GenerateOptions,
  signal: AbortSignal,
): Promise<number> {
  const catalog = packCatalog(engine.packs);
  const document = readInlineConfig({ config_yaml: text });
  const config = normaliseConfig(requireValidConfig(withOverrides(document.value, options), catalog, document.source));
  const seeded = { ...config, seed: config.seed ?? randomInt(SEED_RANGE) };
  const { format, compression } = config.output;
  const plan = await engine.plan(seeded);
  // The files a job of this config delivers: its tables, then those they reference when it includes them.
  const unrequested = plan.tables.filter((table) => !table.requested).map(({ name, rows }) => ({ name, rows }));
  const tables = withReferencedTables(seeded, catalog, unrequested).tables.map((table) => table.name);
  const directory = resolve(options.out);
  const progress = new Progress(process.stderr, { quiet: options.quiet });
  progress.say(
    `${seeded.sector}: ${tables.join(', ')} with seed ${seeded.seed}${config.seed === undefined ? ' (drawn)' : ''}, ` +
      `${format}${compression === 'none' ? '' : `, ${compression}`}, into ${shown(directory)}/`,
  );
  // The conformance report, unless the config turns it off, is gathered from the workers' statistics as a job's is.
  const reports = config.output.report ? new ReportCollector(plan) : undefined;
  for (const table of tables) {
    const rowsTotal = plan.tables.find((planned) => planned.name === table)!.rows;
    const file = resultFileName(table, format, compression);
    progress.start(table, rowsTotal);
    const written = await writeResultFile({
      directory,
      file,
      partFile: `${file}.part`,
      compression: fileCompression(format, compression),
      // The writer is done with each chunk before it asks for the next, as a job's is: buffers go back to the workers.
      chunks: engine.pool.generate(plan, table, {
        format,
        // Parquet compresses its pages as they are written; a text file is compressed on its way to disk.
        ...(format === 'parquet' ? { compression } : {}),
        signal,
        recycle: true,
        onProgress: (rowsDone) => progress.update(rowsDone),
        ...(reports ? { statistics: reports.statisticsFor(table) } : {}),
      }),
      signal,
    });
    progress.finish(shown(resolve(directory, file)), written.bytes);
  }
  if (reports) {
    const report = reports.report();
    await writeFile(join(directory, REPORT_FILE), reportBytes(report));
    await writeFile(join(directory, REPORT_PAGE), reportPage(report, `Conformance report of ${shown(configPath)}`));
    progress.say(`report: score ${report.score} → ${shown(join(directory, REPORT_FILE))} and ${REPORT_PAGE}`);
  }
  return 0;
}

/** The report's page beside its JSON (REPORT_FILE, the name a job stores it under): underscored, as no table is. */
const REPORT_PAGE = '_report.html';

/** Why generation stopped before the end: a signal from the terminal or the system. */
class Interrupted extends Error {
  constructor(readonly signal: NodeJS.Signals) {
    super(`stopped by ${signal}`);
  }
}

async function readConfigFile(path: string): Promise<string> {
  try {
    if (!(await stat(path)).isFile()) throw new UsageError(`the config ${path} is not a file`);
    return await readFile(path, 'utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const { code, message } = error as NodeJS.ErrnoException;
    throw new UsageError(`cannot read the config ${path}: ${code === 'ENOENT' ? 'no such file' : message}`);
  }
}

/** A problem of the config as an editor reads it: `<file>:<line>:<column>: <pointer>: <message>` per issue. */
function describeProblem(path: string, error: ProblemError): string {
  const { errors } = error.extensions;
  const issues = Array.isArray(errors) ? errors.filter(isIssue) : [];
  if (issues.length === 0) return `finsynth generate: ${path}: ${error.detail}\n`;
  const lines = issues.map(({ pointer, message, line, column }) => {
    const where = line === undefined ? path : `${path}:${line}:${column ?? 1}`;
    return `${where}: ${pointer ? `${pointer}: ` : ''}${message}`;
  });
  const more = error.extensions.errors_truncated === true ? ['… and more'] : [];
  return `finsynth generate: the config has problems:\n${[...lines, ...more].join('\n')}\n`;
}

/**
 * The config with the command line's seed, format and compression in place of its own, before it is checked: a
 * combination the config format refuses (a text format with snappy) is then reported as the config's problem.
 */
function withOverrides(value: unknown, { seed, format, compression }: GenerateOptions): unknown {
  if (!isObject(value)) return value;
  const output = isObject(value.output) ? value.output : {};
  return {
    ...value,
    ...(seed !== undefined ? { seed } : {}),
    ...(format || compression
      ? { output: { ...output, ...(format ? { format } : {}), ...(compression ? { compression } : {}) } }
      : {}),
  };
}

/** A path as the user reads it best: relative to the current folder when it lies below it. */
function shown(path: string): string {
  const below = relative(process.cwd(), path);
  return below === '' ? '.' : below.startsWith('..') || isAbsolute(below) ? path : below;
}

function isIssue(value: unknown): value is ConfigIssue {
  return isObject(value) && typeof value.message === 'string';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
