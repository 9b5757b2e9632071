import { downloadResult, type DownloadOptions, type DownloadResult } from '../jobs/download-result.js';
import type { AnswerOf, JsonBodyOf, QueryOf } from '../operation-types.js';
import { unwrap, type Requester, type RequestOptions } from '../requester.js';
import { sleep } from '../transport/sleep.js';
import { configBody, type ConfigInput } from './config-input.js';

export type Job = AnswerOf<'getJob'>;
export type JobState = Job['state'];
export type CreateJobBody = JsonBodyOf<'createJob'>;
export type JobReport = AnswerOf<'getJobReport'>;

/** States a job never leaves. */
export const TERMINAL_JOB_STATES: readonly JobState[] = ['succeeded', 'failed', 'cancelled'];

export interface WaitOptions {
  /** Called with the job after every poll, the last (terminal) one included. */
  onProgress?: (job: Job) => void;
  /** Stops waiting (the job goes on). */
  signal?: AbortSignal;
  /** Between polls; 1000 ms by default. */
  intervalMs?: number;
}

/** Asynchronous generation: jobs created from a config, followed, cancelled, and their results downloaded. */
export class Jobs {
  constructor(private readonly requester: Requester) {}

  /**
   * Queues a job from a config: YAML text, `{ config }`, `{ config_yaml }`, or `{ config_id, overlays }`.
   * A live key reserves the estimated credits now (402 InsufficientCreditsError when they are missing).
   */
  create(input: ConfigInput<CreateJobBody>, options?: RequestOptions) {
    const body = configBody(input);
    return unwrap(this.requester.raw.POST('/v1/jobs', { body, ...this.requester.init(options) }));
  }

  /** The jobs of the key's mode, newest first, page after page. */
  list(params: Omit<QueryOf<'listJobs'>, 'cursor'> = {}, options?: RequestOptions) {
    return this.requester.list((cursor) =>
      this.requester.raw.GET('/v1/jobs', { params: { query: { ...params, cursor } }, ...this.requester.init(options) }),
    );
  }

  retrieve(id: string, options?: RequestOptions): Promise<Job> {
    return unwrap(
      this.requester.raw.GET('/v1/jobs/{id}', { params: { path: { id } }, ...this.requester.init(options) }),
    );
  }

  /** Asks a queued or running job to stop; what it did not use is released. */
  cancel(id: string, options?: RequestOptions) {
    const params = { path: { id } };
    return unwrap(this.requester.raw.POST('/v1/jobs/{id}/cancel', { params, ...this.requester.init(options) }));
  }

  /** The result files of a succeeded job: table, format, rows, bytes, SHA-256. */
  results(id: string, options?: RequestOptions) {
    const params = { path: { id } };
    return unwrap(this.requester.raw.GET('/v1/jobs/{id}/results', { params, ...this.requester.init(options) }));
  }

  /** The conformance report of a succeeded job: every job makes one unless its config says `output.report: false`. */
  report(id: string, options?: RequestOptions): Promise<JobReport> {
    const params = { path: { id } };
    return unwrap(this.requester.raw.GET('/v1/jobs/{id}/report', { params, ...this.requester.init(options) }));
  }

  /** The same report as its self-contained HTML page (no script, nothing loaded from elsewhere). */
  reportPage(id: string, options?: RequestOptions): Promise<string> {
    const init = this.requester.init(options);
    const headers = { ...init.headers, Accept: 'text/html' };
    const params = { path: { id } };
    return unwrap(this.requester.raw.GET('/v1/jobs/{id}/report', { params, ...init, headers, parseAs: 'text' }));
  }

  /** Polls a job until it is succeeded, failed or cancelled, and returns it in that state. */
  async wait(id: string, options: WaitOptions = {}): Promise<Job> {
    for (;;) {
      const job = await this.retrieve(id, { signal: options.signal });
      options.onProgress?.(job);
      if (TERMINAL_JOB_STATES.includes(job.state)) return job;
      await sleep(options.intervalMs ?? 1000, options.signal);
    }
  }

  /** Downloads one table's result file to a path or a Writable, resuming after a broken connection. */
  download(id: string, table: string, options: DownloadOptions): Promise<DownloadResult> {
    return downloadResult(this.requester, id, table, options);
  }
}
