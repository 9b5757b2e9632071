import { CountingUnexpectedErrors, reportUnhandledRejections } from '../../../../core/faults/unexpected-errors.js';

// A child process: a promise fails unheard while rejections are reported; the process must live on to say so.
const faults = new CountingUnexpectedErrors();
reportUnhandledRejections(faults);
void Promise.reject(new Error('nobody listens'));
setTimeout(() => {
  process.stdout.write(JSON.stringify(faults.seen.map(({ source, error }) => [source, (error as Error).message])));
}, 50);
