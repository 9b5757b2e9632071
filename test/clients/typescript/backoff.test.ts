import { expect } from 'chai';
import { MAX_RETRY_DELAY_MS, retryAfterMs, retryDelayMs } from '../../../clients/typescript/src/transport/backoff.js';

describe('@finsynth/client: the wait before a retry', () => {
  const now = Date.parse('2026-11-26T12:00:00.000Z');

  it('reads Retry-After as delay-seconds or as an HTTP date', () => {
    expect(retryAfterMs('3', now)).to.equal(3000);
    expect(retryAfterMs(' 0 ', now)).to.equal(0);
    expect(retryAfterMs('Thu, 26 Nov 2026 12:00:05 GMT', now)).to.equal(5000);
    // A date already past asks for no wait.
    expect(retryAfterMs('Thu, 26 Nov 2026 11:59:00 GMT', now)).to.equal(0);
    expect(retryAfterMs(null, now)).to.equal(undefined);
    expect(retryAfterMs('soon', now)).to.equal(undefined);
    expect(retryAfterMs('-1', now)).to.equal(undefined);
  });

  it('doubles from 0.5 s, jittered between half and all of it, up to a bound', () => {
    const [least, most] = [() => 0, () => 0.999_999];
    expect(retryDelayMs(0, undefined, least)).to.equal(250);
    expect(retryDelayMs(0, undefined, most)).to.be.closeTo(500, 0.01);
    expect(retryDelayMs(1, undefined, least)).to.equal(500);
    expect(retryDelayMs(3, undefined, least)).to.equal(2000);
    expect(retryDelayMs(20, undefined, most)).to.be.closeTo(MAX_RETRY_DELAY_MS, 0.01);
  });

  it('is never shorter than the Retry-After asked for, with the jitter on top', () => {
    expect(retryDelayMs(0, 1000, () => 0)).to.equal(1000);
    expect(retryDelayMs(0, 1000, () => 0.5)).to.equal(1125);
    // A Retry-After shorter than the backoff leaves the backoff as it is.
    expect(retryDelayMs(3, 1000, () => 0)).to.equal(2000);
  });
});
