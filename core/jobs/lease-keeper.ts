import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '../clock.js';
import type { CommandHandler } from '../commands/command-handler.js';
import { jobDecider, jobStream, type TableProgress } from './job.js';
import { ProblemError } from '../problems.js';

/**
 * Why a runner stops a job before its end: the client cancelled it, another runner took it over, or this
 * instance is shutting down.
 */
export type StopReason = 'cancel' | 'lease-lost' | 'stopping';

/** Progress events are the heartbeat; never more than one a second per job (they are events, kept forever). */
export const HEARTBEAT_MS = 1000;

export interface LeaseKeeperOptions {
  commands: CommandHandler;
  clock: Clock;
  jobId: string;
  instanceId: string;
  leaseMs: number;
  /** How often the job's stream is read for a cancel request or a takeover: what bounds "stops within a second". */
  pollMs: number;
  progress: () => TableProgress[];
  /** Aborted with a StopReason when the job must stop. */
  controller: AbortController;
  onError: (error: unknown) => void;
}

/**
 * Watches a running job on behalf of its runner: renews the lease with a progress event each
 * second, and aborts the work when the job's stream shows a cancel request or another holder.
 */
export function keepLease(options: LeaseKeeperOptions): { stop(): Promise<void> } {
  const { commands, clock, jobId, instanceId, leaseMs, pollMs, progress, controller, onError } = options;
  const stopped = new AbortController();
  const stream = jobStream(jobId);
  let lastBeat = clock.now().getTime();

  async function check(): Promise<StopReason | null> {
    const { state } = await commands.load(jobDecider, stream);
    if (state.status !== 'running' || state.lease?.instanceId !== instanceId) return 'lease-lost';
    if (state.cancelRequested) return 'cancel';
    const now = clock.now();
    if (now.getTime() - lastBeat < HEARTBEAT_MS) return null;
    lastBeat = now.getTime();
    await commands.handle(jobDecider, stream, {
      type: 'RecordProgress',
      instanceId,
      tables: progress(),
      at: now.toISOString(),
      leaseMs,
    });
    return null;
  }

  const running = (async () => {
    while (!stopped.signal.aborted && !controller.signal.aborted) {
      await sleep(pollMs, undefined, { signal: stopped.signal }).catch(() => undefined);
      if (stopped.signal.aborted) return;
      try {
        const reason = await check();
        if (reason) controller.abort(reason);
      } catch (error) {
        // Another runner took the job over between the read and the append.
        if (error instanceof ProblemError) controller.abort('lease-lost' satisfies StopReason);
        // A store hiccup: try again at the next poll; the lease outlives a few missed beats.
        else onError(error);
      }
    }
  })();

  return {
    async stop() {
      stopped.abort();
      await running;
    },
  };
}
