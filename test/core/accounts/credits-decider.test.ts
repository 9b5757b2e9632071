import { accountDecider, type AccountEvent } from '../../../core/accounts/account.js';
import type { DebitCredits, ReserveCredits } from '../../../core/accounts/credits.js';
import { JobProblems } from '../../../core/jobs/job.js';
import {
  CreditReferenceReused,
  CreditReferenceUnknown,
  InsufficientCredits,
  ReservationClosed,
} from '../../../core/accounts/credit-problems.js';
import { expect } from 'chai';
import { ProblemError, Problems } from '../../../core/problems.js';
import { deciderSpec } from '../jobs/decider-spec.js';

const given = deciderSpec(accountDecider);
const opened: AccountEvent = {
  type: 'AccountOpened',
  data: { account_id: 'acc_1', tier: 'free', opened_at: '2026-01-01T00:00:00.000Z' },
};
const granted = (credits: number, reference = 'grant_1'): AccountEvent => ({
  type: 'CreditsGranted',
  data: { reference, credits, reason: 'promotion' },
});
const tables = [{ name: 'transactions', rows: 2000, credits: 4 }];

const debit = (credits: number, mode: 'live' | 'test' = 'live', reference = 'req_1'): DebitCredits => ({
  type: 'DebitCredits',
  reference,
  mode,
  keyId: 'key_1',
  operation: 'quick',
  sector: 'cards',
  tables,
  credits,
});
const debited = (credits: number, mode: 'live' | 'test' = 'live', reference = 'req_1'): AccountEvent => ({
  type: 'CreditsDebited',
  data: { reference, mode, key_id: 'key_1', operation: 'quick', sector: 'cards', tables, credits },
});
const reserve = (
  credits: number,
  mode: 'live' | 'test' = 'live',
  reference = 'job_1',
  concurrentJobs: ReserveCredits['concurrentJobs'] = null,
): ReserveCredits => ({
  type: 'ReserveCredits',
  reference,
  mode,
  keyId: 'key_1',
  sector: 'cards',
  tables,
  credits,
  concurrentJobs,
});
const reserved = (credits: number, mode: 'live' | 'test' = 'live', reference = 'job_1'): AccountEvent => ({
  type: 'CreditsReserved',
  data: { reference, mode, key_id: 'key_1', sector: 'cards', tables, credits },
});

describe('credits slice of the account decider', () => {
  it('grants once per reference; the same reference with another amount is a conflict', () => {
    given([opened])
      .when({ type: 'GrantCredits', reference: 'grant_1', credits: 100, reason: 'promotion' })
      .then([granted(100)]);
    given([opened, granted(100)])
      .when({ type: 'GrantCredits', reference: 'grant_1', credits: 100, reason: 'promotion' })
      .then([]);
    given([opened, granted(100)])
      .when({ type: 'GrantCredits', reference: 'grant_1', credits: 5, reason: 'promotion' })
      .thenThrows(CreditReferenceReused);
  });

  it('refuses a negative or fractional amount, and any command on an account that is not open', () => {
    given([opened])
      .when({ type: 'GrantCredits', reference: 'g', credits: -1, reason: 'x' })
      .thenThrows(Problems.badRequest);
    given([opened])
      .when({ type: 'GrantCredits', reference: 'g', credits: 1.5, reason: 'x' })
      .thenThrows(Problems.badRequest);
    given([]).when(debit(1)).thenThrows(Problems.notFound);
  });

  it('debits what is available, exactly to zero, and refuses one credit more with 402', () => {
    given([opened, granted(10)])
      .when(debit(10))
      .then([debited(10)]);
    given([opened, granted(10), debited(10)])
      .when(debit(1, 'live', 'req_2'))
      .thenThrows(InsufficientCredits);
    given([opened, granted(10)])
      .when(debit(11))
      .thenThrows(InsufficientCredits);
  });

  it('a repeated debit reference charges nothing more', () => {
    given([opened, granted(10), debited(4)])
      .when(debit(4))
      .then([]);
    given([opened, granted(10), debited(4)])
      .when(debit(5))
      .thenThrows(CreditReferenceReused);
  });

  it('a test-mode debit needs no balance and is recorded as sandbox work', () => {
    given([opened])
      .when(debit(50, 'test'))
      .then([debited(50, 'test')]);
    given([opened, debited(50, 'test')])
      .when(debit(1, 'live', 'req_2'))
      .thenThrows(InsufficientCredits);
  });

  it('refunds a debit in full, once; an unknown reference is named', () => {
    const refunded: AccountEvent = {
      type: 'CreditsRefunded',
      data: { reference: 'req_1', mode: 'live', credits: 4, reason: 'generator failed' },
    };
    given([opened, granted(10), debited(4)])
      .when({ type: 'RefundCredits', reference: 'req_1', reason: 'generator failed' })
      .then([refunded]);
    given([opened, granted(10), debited(4), refunded])
      .when({ type: 'RefundCredits', reference: 'req_1', reason: 'again' })
      .then([]);
    given([opened, granted(10), debited(4), refunded])
      .when(debit(10, 'live', 'req_2'))
      .then([debited(10, 'live', 'req_2')]);
    given([opened]).when({ type: 'RefundCredits', reference: 'nope', reason: 'x' }).thenThrows(CreditReferenceUnknown);
  });

  describe('a retry of a request supersedes the debits of its earlier attempts', () => {
    const retry = (credits: number, supersedes: string[], mode: 'live' | 'test' = 'live'): DebitCredits => ({
      ...debit(credits, mode, 'req_1.2'),
      supersedes,
    });
    const givenBack = (credits: number, mode: 'live' | 'test' = 'live'): AccountEvent => ({
      type: 'CreditsRefunded',
      data: { reference: 'req_1', mode, credits, reason: 'superseded by a retry of the same request' },
    });
    const refundedByOutbox: AccountEvent = {
      type: 'CreditsRefunded',
      data: { reference: 'req_1', mode: 'live', credits: 4, reason: 'generator failed' },
    };

    it('refunds an earlier debit in the same append, before the new debit is decided on the balance', () => {
      const retried = debited(4, 'live', 'req_1.2');
      given([opened, granted(4), debited(4)])
        .when(retry(4, ['req_1']))
        .then([givenBack(4), retried]);
      given([opened, granted(4), debited(4)])
        .when(retry(5, ['req_1']))
        .thenThrows(InsufficientCredits);
    });

    it('an earlier debit refunded already gives nothing back twice; its refund coming after appends nothing', () => {
      const retried = debited(4, 'live', 'req_1.2');
      given([opened, granted(10), debited(4), refundedByOutbox])
        .when(retry(4, ['req_1']))
        .then([retried]);
      given([opened, granted(10), debited(4), givenBack(4), debited(4, 'live', 'req_1.2')])
        .when({ type: 'RefundCredits', reference: 'req_1', reason: 'generator failed' })
        .then([]);
    });

    it('the retry repeated appends nothing; an unknown earlier reference is skipped', () => {
      const retried = [opened, granted(10), debited(4), givenBack(4), debited(4, 'live', 'req_1.2')];
      given(retried)
        .when(retry(4, ['req_1']))
        .then([]);
      given([opened, granted(10)])
        .when(retry(4, ['req_1', 'req_1']))
        .then([debited(4, 'live', 'req_1.2')]);
    });

    it('a sandbox debit is superseded as usage, and frees no live credit', () => {
      const sandbox = [givenBack(4, 'test'), debited(4, 'test', 'req_1.2')];
      given([opened, debited(4, 'test')])
        .when(retry(4, ['req_1'], 'test'))
        .then(sandbox);
      given([opened, granted(2), debited(4, 'test')])
        .when(retry(4, ['req_1']))
        .thenThrows(InsufficientCredits);
    });
  });

  it('reserves against the available balance; reserved credits cannot be spent twice', () => {
    given([opened, granted(10)])
      .when(reserve(8))
      .then([reserved(8)]);
    given([opened, granted(10), reserved(8)])
      .when(debit(3))
      .thenThrows(InsufficientCredits);
    given([opened, granted(10), reserved(8)])
      .when(reserve(8))
      .then([]);
    given([opened, granted(5)])
      .when(reserve(8))
      .thenThrows(InsufficientCredits);
  });

  it('settles what was produced, capped at the reservation, and releases the rest', () => {
    const settle = (credits: number) => ({
      type: 'SettleCredits' as const,
      reference: 'job_1',
      tables: [{ name: 'transactions', rows: 100, credits }],
    });
    const settled = (credits: number, released: number): AccountEvent => ({
      type: 'CreditsSettled',
      data: {
        reference: 'job_1',
        mode: 'live',
        tables: [{ name: 'transactions', rows: 100, credits }],
        credits: Math.min(credits, 8),
        released,
      },
    });
    given([opened, granted(10), reserved(8)])
      .when(settle(3))
      .then([settled(3, 5)]);
    given([opened, granted(10), reserved(8)])
      .when(settle(12))
      .then([settled(12, 0)]);
    given([opened, granted(10), reserved(8), settled(3, 5)])
      .when(settle(3))
      .then([]);
    // 10 granted, 3 charged: 7 left to spend.
    given([opened, granted(10), reserved(8), settled(3, 5)])
      .when(debit(7))
      .then([debited(7)]);
    given([opened, granted(10), reserved(8), settled(3, 5)])
      .when(debit(8))
      .thenThrows(InsufficientCredits);
  });

  it('releases a held reservation once; a released one cannot be settled; a settled one releases nothing', () => {
    const released: AccountEvent = {
      type: 'CreditsReleased',
      data: { reference: 'job_1', mode: 'live', credits: 8, reason: 'cancelled' },
    };
    given([opened, granted(10), reserved(8)])
      .when({ type: 'ReleaseCredits', reference: 'job_1', reason: 'cancelled' })
      .then([released]);
    given([opened, granted(10), reserved(8), released])
      .when({ type: 'ReleaseCredits', reference: 'job_1', reason: 'cancelled' })
      .then([]);
    given([opened, granted(10), reserved(8), released])
      .when({ type: 'SettleCredits', reference: 'job_1', tables })
      .thenThrows(ReservationClosed);
    given([opened, granted(10), reserved(8), released])
      .when(debit(10))
      .then([debited(10)]);
    given([opened])
      .when({ type: 'ReleaseCredits', reference: 'job_9', reason: 'x' })
      .thenThrows(CreditReferenceUnknown);
  });

  it('a test-mode reservation holds nothing and settles as sandbox usage', () => {
    given([opened])
      .when(reserve(8, 'test'))
      .then([reserved(8, 'test')]);
    given([opened, granted(3), reserved(8, 'test')])
      .when(debit(3))
      .then([debited(3)]);
    given([opened, reserved(8, 'test')])
      .when({ type: 'SettleCredits', reference: 'job_1', tables })
      .then([{ type: 'CreditsSettled', data: { reference: 'job_1', mode: 'test', tables, credits: 4, released: 4 } }]);
  });

  describe("a held reservation is a job slot, counted against the tier's concurrent-job limit", () => {
    const limits = { free: 1, developer: 5, team: 20, scale: null };
    const job = (reference: string, mode: 'live' | 'test' = 'live') => reserve(2, mode, reference, limits);
    const heldJob = (reference: string, mode: 'live' | 'test' = 'live') => reserved(2, mode, reference);
    const released = (reference: string): AccountEvent => ({
      type: 'CreditsReleased',
      data: { reference, mode: 'live', credits: 2, reason: 'job failed' },
    });
    const settled = (reference: string): AccountEvent => ({
      type: 'CreditsSettled',
      data: { reference, mode: 'live', tables, credits: 2, released: 0 },
    });

    it('the Free tier holds one: a second reservation is refused with the 429 while the first is held', () => {
      given([opened, granted(10)])
        .when(job('job_1'))
        .then([heldJob('job_1')]);
      given([opened, granted(10), heldJob('job_1')])
        .when(job('job_2'))
        .thenThrows(JobProblems.tooManyJobs);
    });

    it('the 429 names the tier, its limit and the jobs holding a slot, and says when to retry', () => {
      const state = [opened, granted(10), heldJob('job_1')].reduce(
        accountDecider.evolve,
        accountDecider.initialState(),
      );
      let refused: unknown;
      try {
        accountDecider.decide(job('job_2'), state);
      } catch (error) {
        refused = error;
      }
      if (!(refused instanceof ProblemError)) throw new Error(`expected a ProblemError, got ${String(refused)}`);
      expect(refused.extensions).to.deep.equal({ limit: 1, active_jobs: 1, tier: 'free' });
      expect(refused.headers['Retry-After']).to.match(/^\d+$/);
      expect(refused.detail).to.contain('at most 1 concurrent job');
    });

    it('a settled or released reservation frees its slot', () => {
      given([opened, granted(10), heldJob('job_1'), settled('job_1')])
        .when(job('job_2'))
        .then([heldJob('job_2')]);
      given([opened, granted(10), heldJob('job_1'), released('job_1')])
        .when(job('job_2'))
        .then([heldJob('job_2')]);
    });

    it('a retried reservation is not refused: it already holds its slot', () => {
      given([opened, granted(10), heldJob('job_1')])
        .when(job('job_1'))
        .then([]);
    });

    it('live and test jobs are counted apart', () => {
      given([opened, granted(10), heldJob('job_1')])
        .when(job('job_2', 'test'))
        .then([heldJob('job_2', 'test')]);
      given([opened, granted(10), heldJob('job_1', 'test')])
        .when(job('job_2', 'test'))
        .thenThrows(JobProblems.tooManyJobs);
    });

    it('the limit is that of the tier on the account stream: an upgrade admits more at once', () => {
      const upgraded: AccountEvent = {
        type: 'SubscriptionUpgraded',
        data: {
          from_tier: 'free',
          to_tier: 'developer',
          at: '2026-01-02T00:00:00.000Z',
          period_start: '2026-01-01T00:00:00.000Z',
          period_end: '2026-02-01T00:00:00.000Z',
          credits: 0,
          amount: 0,
          currency: 'EUR',
          charged: true,
        },
      };
      given([opened, granted(10), heldJob('job_1'), upgraded])
        .when(job('job_2'))
        .then([heldJob('job_2')]);
      const scale: AccountEvent = {
        type: 'AccountOpened',
        data: { account_id: 'acc_1', tier: 'scale', opened_at: '2026-01-01T00:00:00.000Z' },
      };
      const many = Array.from({ length: 30 }, (_, index) => heldJob(`job_${index}`));
      given([scale, granted(100), ...many])
        .when(job('job_99'))
        .then([heldJob('job_99')]);
    });

    it('a reservation without limits (not a job slot) is never refused for concurrency', () => {
      given([opened, granted(10), heldJob('job_1')])
        .when(reserve(2, 'live', 'job_2'))
        .then([heldJob('job_2')]);
    });
  });
});
