import { setTimeout as delay } from 'node:timers/promises';
import type { Clock } from '../clock.js';
import type { CommandHandler } from '../commands/command-handler.js';
import { jobDecider, jobStream, JobProblems, type JobState, type ResultFile, type TableProgress } from './job.js';
import { ProblemError } from '../problems.js';
import { chargesFor } from './charges.js';
import { failureProblem } from './failure.js';
import { keepLease, type StopReason } from './lease-keeper.js';
import type { JobCredits, TableGenerator } from './ports.js';
import {
  fileCompression,
  jobDirectory,
  partFileName,
  removeJobDirectory,
  removeStalePartFiles,
  REPORT_FILE,
  resultFileName,
  writeReportFile,
  writeResultFile,
} from './result-files.js';
import { ReportCollector, reportBytes } from '../reports/report-collector.js';

export interface JobContext {
  commands: CommandHandler;
  credits: JobCredits;
  generate: TableGenerator;
  clock: Clock;
  instanceId: string;
  resultsDir: string;
  leaseMs: number;
  pollMs: number;
  onError: (error: unknown) => void;
}

/**
 * Runs one claimed attempt of a job to its end: every table streamed to its result file, then the
 * reservation settled and the job completed. Settling comes first and is idempotent on the job id,
 * so an instance that dies between the two is taken over and charges nothing twice.
 *
 * A cancel removes every file and releases the credits; a lost lease or a shutdown only drops this
 * attempt's part files and leaves the job to the runner that holds (or will take over) its lease. A
 * graceful shutdown (`handOver`) ends the lease at once, so that another instance need not wait for it.
 */
export async function runJob(
  context: JobContext,
  claimed: JobState,
  stopping: AbortSignal,
  handOver: () => boolean,
): Promise<void> {
  const { commands, credits, generate, clock, instanceId, resultsDir } = context;
  const job = claimed.created!;
  const attempt = claimed.lease!.attempt;
  const stream = jobStream(job.job_id);
  const directory = jobDirectory(resultsDir, job.job_id);
  const { format, compression } = job.output;
  const progress: TableProgress[] = job.estimate.tables.map((table) => ({
    name: table.name,
    rows_done: 0,
    rows_total: table.rows,
  }));
  const controller = new AbortController();
  const onStopping = () => controller.abort('stopping' satisfies StopReason);
  // A shutdown that began while this job was being claimed has already fired its abort event.
  if (stopping.aborted) onStopping();
  else stopping.addEventListener('abort', onStopping, { once: true });
  const lease = keepLease({ ...context, jobId: job.job_id, progress: () => structuredClone(progress), controller });
  let table: string | null = null;
  let settled = false;
  try {
    await removeStalePartFiles(directory, attempt);
    const files: ResultFile[] = [];
    // The conformance report, when asked for, is gathered while the tables are written, from the workers' statistics.
    const reports = job.output.report ? new ReportCollector(job.plan) : undefined;
    for (const entry of progress) {
      table = entry.name;
      const file = resultFileName(entry.name, format, compression);
      const onProgress = (rowsDone: number) => (entry.rows_done = rowsDone);
      // writeResultFile is done with each chunk before it asks for the next: its buffer can go back to the workers.
      const chunks = generate(job.plan, entry.name, {
        format,
        // Parquet compresses its pages as they are written; a text file is compressed on its way to disk.
        ...(format === 'parquet' ? { compression } : {}),
        signal: controller.signal,
        onProgress,
        recycle: true,
        ...(reports ? { statistics: reports.statisticsFor(entry.name) } : {}),
      });
      const written = await writeResultFile({
        directory,
        file,
        partFile: partFileName(entry.name, format, compression, attempt),
        compression: fileCompression(format, compression),
        chunks,
        signal: controller.signal,
      });
      files.push({ table: entry.name, file, format, compression, rows: entry.rows_done, ...written });
    }
    table = null;
    const report = reports && {
      file: REPORT_FILE,
      ...(await writeReportFile(directory, reportBytes(reports.report()), attempt)),
    };
    await lease.stop();
    if (controller.signal.aborted) throw controller.signal.reason;
    const charges = chargesFor(job.estimate, files);
    await credits.settle(job.account_id, job.job_id, { tables: charges });
    settled = true;
    // A test job's usage record holds what it would have cost live; the job itself was charged nothing.
    const charged = job.mode === 'test' ? 0 : charges.reduce((sum, charge) => sum + charge.credits, 0);
    const complete = {
      type: 'CompleteJob',
      instanceId,
      files,
      credits: charged,
      at: clock.now().toISOString(),
      ...(report ? { report } : {}),
    } as const;
    await withRetries(() => commands.handle(jobDecider, stream, complete), context.leaseMs);
  } catch (error) {
    await lease.stop();
    const reason = controller.signal.reason as StopReason | undefined;
    // Another runner holds the job now (also when that is how completing it failed): its files are not ours to touch.
    if (reason === 'lease-lost' || isLeaseLost(error)) return;
    if (reason === 'stopping') {
      if (handOver()) await handBack(context, job.job_id);
      return;
    }
    // Charged, and its files written: the job is not failed for want of its last event, which was retried
    // (withRetries). The lease runs out, and the attempt that takes it over writes the same files and
    // completes it, charging nothing twice.
    if (settled) return context.onError(error);
    // The decider's holder check comes first, atomically: an attempt whose lease was taken over meanwhile
    // is refused there, and leaves the files and the reservation to the attempt that holds the job now.
    // Released after: the runners' reconciler releases a failed or cancelled job's reservation if this
    // process dies in between.
    const at = clock.now().toISOString();
    const ended =
      reason === 'cancel'
        ? commands.handle(jobDecider, stream, { type: 'ConfirmCancel', instanceId, at })
        : commands.handle(jobDecider, stream, {
            type: 'FailJob',
            instanceId,
            problem: failureProblem(error, table),
            at,
          });
    try {
      await ended;
    } catch (refusal) {
      if (!isLeaseLost(refusal)) context.onError(refusal);
      return;
    }
    await credits.release(job.account_id, job.job_id, reason === 'cancel' ? 'job cancelled' : 'job failed');
    await removeJobDirectory(resultsDir, job.job_id);
  } finally {
    stopping.removeEventListener('abort', onStopping);
  }
}

/**
 * Runs `append` again after a store error, at growing intervals that end well within the lease: a blip
 * of the store (a dropped connection, a busy database) passes in that time, where a takeover would write
 * every file of the job again. A refusal of the decider is final; so is a lost lease, which is also what
 * a retry meets when the failed try had in fact been stored (the job is then no longer running).
 */
async function withRetries<T>(append: () => Promise<T>, leaseMs: number): Promise<T> {
  for (const share of [1 / 150, 1 / 30, 2 / 15]) {
    try {
      return await append();
    } catch (error) {
      if (error instanceof ProblemError) throw error;
    }
    await delay(leaseMs * share);
  }
  return append();
}

const isLeaseLost = (error: unknown) => error instanceof ProblemError && error.type === JobProblems.leaseLost;

/** Ends this runner's lease now: a progress event whose lease expires at once. */
async function handBack(context: JobContext, jobId: string): Promise<void> {
  const { commands, clock, instanceId } = context;
  const { state } = await commands.load(jobDecider, jobStream(jobId));
  const command = {
    type: 'RecordProgress',
    instanceId,
    tables: state.progress,
    at: clock.now().toISOString(),
    leaseMs: 0,
  } as const;
  await commands.handle(jobDecider, jobStream(jobId), command).catch(() => undefined);
}
