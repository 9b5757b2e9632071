import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { failureReason, type LoadFailure } from './load-error.js';

/**
 * Loads pack modules in a short-lived worker thread, each with a time limit, under a heap limit, before the
 * main thread imports them: a module whose top-level code loops forever, awaits something that never
 * settles or exhausts memory would otherwise hang the service's start or take it down. One worker imports
 * the modules in turn (they share the SDK's modules, loaded once); when one hangs or kills its worker, a
 * new worker goes on with the rest. Each module is probed once per process.
 */
export interface ProbeOptions {
  /** Time each module has to load, counted from the moment the worker starts importing it. */
  timeoutMs: number;
  memoryMb?: number;
}

/** Why a module does not load: the reason in one line, and where in the pack when its error says so. */
export interface ProbeRefusal {
  reason: string;
  file: string | null;
  line: number | null;
}

type Verdict = ProbeRefusal | null;

/** Per module: null when it loads, else why it does not. */
const verdicts = new Map<string, Promise<Verdict>>();

export function probeModules(urls: readonly string[], options: ProbeOptions): Promise<Verdict[]> {
  const fresh = [...new Set(urls.filter((url) => !verdicts.has(url)))];
  if (fresh.length) {
    const probing = runProbes(fresh, options);
    fresh.forEach((url) =>
      verdicts.set(
        url,
        probing.then((found) => found.get(url)!),
      ),
    );
  }
  return Promise.all(urls.map((url) => verdicts.get(url)!));
}

async function runProbes(urls: string[], options: ProbeOptions): Promise<Map<string, Verdict>> {
  const found = new Map<string, Verdict>();
  while (found.size < urls.length)
    await probeInWorker(
      urls.filter((url) => !found.has(url)),
      options,
      found,
    );
  return found;
}

/** Imports `urls` in order in one worker until they are all done or one of them ends the worker. */
function probeInWorker(
  urls: string[],
  { timeoutMs, memoryMb = 256 }: ProbeOptions,
  found: Map<string, Verdict>,
): Promise<void> {
  return new Promise((resolve) => {
    const worker = new Worker(new URL('./probe-worker.mjs', import.meta.url), {
      workerData: { urls },
      resourceLimits: { maxOldGenerationSizeMb: memoryMb },
    });
    let current: string | undefined;
    let timer: NodeJS.Timeout | undefined;
    const stop = (reason: string) => {
      if (current !== undefined && !found.has(current))
        found.set(current, { reason, file: current.startsWith('file:') ? fileURLToPath(current) : null, line: null });
      clearTimeout(timer);
      void worker.terminate();
    };
    worker.on(
      'message',
      ({ url, state, failure }: { url: string; state: 'started' | 'loaded' | 'failed'; failure?: LoadFailure }) => {
        clearTimeout(timer);
        if (state === 'started') {
          current = url;
          timer = setTimeout(
            () =>
              stop(
                `its module did not finish loading within ${timeoutMs / 1000} s (an endless loop or a ` +
                  'never-settling await in its top-level code)',
              ),
            timeoutMs,
          );
          return;
        }
        found.set(
          url,
          state === 'loaded' || !failure
            ? null
            : {
                reason: `its module cannot be loaded: ${failureReason(failure)}`,
                file: failure.file,
                line: failure.line,
              },
        );
        if (urls.every((each) => found.has(each))) void worker.terminate();
      },
    );
    worker.once('error', (error: Error & { code?: string }) =>
      stop(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `its module ran out of memory while loading (heap limit ${memoryMb} MB)`
          : `its module cannot be loaded: ${error.message.split('\n')[0]}`,
      ),
    );
    // A top-level await that can never settle leaves the worker nothing to do: it exits mid-module.
    worker.once('exit', () => {
      stop('its module never finished loading (its top-level code awaits something that never settles)');
      // A worker that could not even start names no module: the rest are refused with the same reason.
      if (current === undefined)
        urls.forEach(
          (url) =>
            found.has(url) ||
            found.set(url, {
              reason: 'its module could not be loaded: the probe worker did not start',
              file: null,
              line: null,
            }),
        );
      resolve();
    });
  });
}
