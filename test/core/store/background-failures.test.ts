import { expect } from 'chai';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import { backgroundFailureLog } from '../../../core/store/background-failures.js';

/** A logger whose lines the test reads back. */
function recordingLogger() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'error' }, sink), lines };
}

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('the log of background failures', () => {
  it('says once per 30 s that the store is unreachable, with the failures left unsaid; other failures each time', async () => {
    const { logger, lines } = recordingLogger();
    let now = 0;
    const poll = backgroundFailureLog(logger, () => now)('job runner failed');
    for (; now < 29_000; now += 200) poll(refused());
    poll(new Error('a bug'));
    poll(new Error('a bug'));
    now = 30_000;
    poll(refused());
    await new Promise((resolve) => setImmediate(resolve));
    expect(
      lines.map((line) => [line.msg, (line.err as { message: string }).message, line.failures_unsaid]),
    ).to.deep.equal([
      ['job runner failed', 'connect ECONNREFUSED 127.0.0.1:5432', 0],
      ['job runner failed', 'a bug', undefined],
      ['job runner failed', 'a bug', undefined],
      ['job runner failed', 'connect ECONNREFUSED 127.0.0.1:5432', 144],
    ]);
  });

  it('keeps each task quiet on its own: one task saying so does not silence another', async () => {
    const { logger, lines } = recordingLogger();
    const log = backgroundFailureLog(logger, () => 0);
    log('job runner failed')(refused());
    log('billing run failed')(refused());
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((line) => line.msg)).to.deep.equal(['job runner failed', 'billing run failed']);
  });
});
