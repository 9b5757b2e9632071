import { loadPricing } from '../../../core/pricing/pricing.js';
import { accountDecider, type AccountEvent } from '../../../core/accounts/account.js';
import { Problems } from '../../../core/problems.js';
import { PaymentMethodRequired } from '../../../core/payments/payment-provider.js';
import { deciderSpec } from '../jobs/decider-spec.js';

const given = deciderSpec(accountDecider);
const pricing = loadPricing();
// January has 31 days: the period is [Jan 1, Feb 1).
const opened: AccountEvent = {
  type: 'AccountOpened',
  data: { account_id: 'acc_1', tier: 'developer', opened_at: '2026-01-01T00:00:00.000Z' },
};
const midJanuary = '2026-01-16T12:00:00.000Z'; // exactly half of January remains

const card: AccountEvent = {
  type: 'PaymentMethodSet',
  data: { payment_method: 'tok_visa', at: '2026-01-01T00:00:00.000Z' },
};
// developer 50,000 -> team 300,000 credits; 249 - 49 = 200 EUR; half the period remains.
const upgraded: AccountEvent = {
  type: 'SubscriptionUpgraded',
  data: {
    from_tier: 'developer',
    to_tier: 'team',
    at: midJanuary,
    period_start: '2026-01-01T00:00:00.000Z',
    period_end: '2026-02-01T00:00:00.000Z',
    credits: 125_000,
    amount: 10_000,
    currency: 'EUR',
    charged: true,
  },
};
const upgradeFee = 'upgrade:2026-01-01T00:00:00.000Z:team';
const declined = (attempt: number): AccountEvent => ({
  type: 'SubscriptionFeeDeclined',
  data: {
    reference: upgradeFee,
    attempt,
    amount: 10_000,
    currency: 'EUR',
    decline_code: 'expired_card',
    reason: 'The card has expired.',
  },
});

describe('subscription slice of the account decider', () => {
  it('an upgrade takes effect now and bills the price difference prorated for the rest of the period; its credits wait for the payment', () => {
    given([opened, card]).when({ type: 'ChangeTier', tier: 'team', at: midJanuary, pricing }).then([upgraded]);
  });

  it('an invoiced account is charged nothing: its upgrade and renewal grant at once, and it never lapses', () => {
    const invoiced: AccountEvent = {
      type: 'AccountOpened',
      data: { ...(opened.data as { account_id: string; tier: 'developer'; opened_at: string }), billing: 'invoice' },
    };
    const upgrade = { ...(upgraded.data as object), charged: false } as AccountEvent['data'];
    given([invoiced])
      .when({ type: 'ChangeTier', tier: 'team', at: midJanuary, pricing })
      .then([
        { type: 'SubscriptionUpgraded', data: upgrade } as AccountEvent,
        {
          type: 'CreditsGranted',
          data: { reference: upgradeFee, credits: 125_000, reason: 'upgrade to team, prorated' },
        },
      ]);
    given([invoiced, { type: 'SubscriptionUpgraded', data: upgrade } as AccountEvent])
      .when({ type: 'RenewSubscription', at: '2026-02-01T00:00:00.000Z', pricing })
      .then([
        {
          type: 'SubscriptionRenewed',
          data: {
            period: 1,
            tier: 'team',
            previous_tier: 'team',
            period_start: '2026-02-01T00:00:00.000Z',
            period_end: '2026-03-01T00:00:00.000Z',
            credits: 300_000,
            amount: 24_900,
            currency: 'EUR',
            charged: false,
          },
        },
        {
          type: 'CreditsGranted',
          data: { reference: 'allowance:2026-02-01T00:00:00.000Z', credits: 300_000, reason: 'team monthly allowance' },
        },
      ]);
  });

  it('a paid upgrade needs a payment method on file', () => {
    given([opened])
      .when({ type: 'ChangeTier', tier: 'team', at: midJanuary, pricing })
      .thenThrows(PaymentMethodRequired);
  });

  it('a paid fee grants what it paid for, once', () => {
    const paid: AccountEvent = {
      type: 'SubscriptionFeePaid',
      data: { reference: upgradeFee, amount: 10_000, currency: 'EUR', payment_id: 'pay_1' },
    };
    given([opened, card, upgraded])
      .when({ type: 'RecordFeePaid', reference: upgradeFee, amount: 10_000, currency: 'EUR', paymentId: 'pay_1' })
      .then([
        paid,
        {
          type: 'CreditsGranted',
          data: { reference: upgradeFee, credits: 125_000, reason: 'upgrade to team, prorated' },
        },
      ]);
    given([opened, card, upgraded, paid])
      .when({ type: 'RecordFeePaid', reference: upgradeFee, amount: 10_000, currency: 'EUR', paymentId: 'pay_1' })
      .then([]);
  });

  it('a declined fee is recorded once per attempt, and a new payment method is a new attempt', () => {
    const decline = {
      type: 'RecordFeeDeclined',
      reference: upgradeFee,
      declineCode: 'expired_card',
      reason: 'The card has expired.',
    } as const;
    given([opened, card, upgraded])
      .when({ ...decline, attempt: 1 })
      .then([declined(1)]);
    given([opened, card, upgraded, declined(1)])
      .when({ ...decline, attempt: 1 })
      .then([]);
    given([opened, card, upgraded, declined(1)])
      .when({ type: 'SetPaymentMethod', paymentMethod: 'tok_visa', at: midJanuary })
      .then([{ type: 'PaymentMethodSet', data: { payment_method: 'tok_visa', at: midJanuary } }]);
    given([opened, card, upgraded])
      .when({ type: 'SetPaymentMethod', paymentMethod: 'tok_visa', at: midJanuary })
      .then([]);
  });

  it("a provider's message longer than an event holds is recorded cut, not refused with the decline", () => {
    const long = `${'The card was declined. '.repeat(40)}`;
    const decline = {
      type: 'RecordFeeDeclined',
      reference: upgradeFee,
      attempt: 1,
      declineCode: 'card_declined',
      reason: long,
    } as const;
    const recorded = { ...declined(1).data, decline_code: 'card_declined', reason: `${long.slice(0, 499)}…` };
    given([opened, card, upgraded])
      .when(decline)
      .then([{ type: 'SubscriptionFeeDeclined', data: recorded } as AccountEvent]);
  });

  it('bills the first period once, while it runs; its allowance was granted when the account opened', () => {
    const first: AccountEvent = {
      type: 'SubscriptionRenewed',
      data: {
        period: 0,
        tier: 'developer',
        previous_tier: 'developer',
        period_start: '2026-01-01T00:00:00.000Z',
        period_end: '2026-02-01T00:00:00.000Z',
        credits: 0,
        amount: 4900,
        currency: 'EUR',
        charged: true,
      },
    };
    given([opened]).when({ type: 'RenewSubscription', at: midJanuary, pricing }).then([first]);
    given([opened, first]).when({ type: 'RenewSubscription', at: midJanuary, pricing }).then([]);
  });

  it('a period that ends with a fee unpaid renews on free', () => {
    given([opened, card, upgraded, declined(1)])
      .when({ type: 'RenewSubscription', at: '2026-02-01T00:00:00.000Z', pricing })
      .then([
        {
          type: 'SubscriptionLapsed',
          data: {
            from_tier: 'team',
            to_tier: 'free',
            unpaid_amount: 10_000,
            currency: 'EUR',
            at: '2026-02-01T00:00:00.000Z',
          },
        },
        {
          type: 'SubscriptionRenewed',
          data: {
            period: 1,
            tier: 'free',
            previous_tier: 'team',
            period_start: '2026-02-01T00:00:00.000Z',
            period_end: '2026-03-01T00:00:00.000Z',
            credits: 1000,
            amount: 0,
            currency: 'EUR',
            charged: true,
          },
        },
        {
          type: 'CreditsGranted',
          data: { reference: 'allowance:2026-02-01T00:00:00.000Z', credits: 1000, reason: 'free monthly allowance' },
        },
      ]);
  });

  it('a paid renewal bills the period; its allowance is granted when the fee is paid', () => {
    const paidUpgrade: AccountEvent = {
      type: 'SubscriptionFeePaid',
      data: { reference: upgradeFee, amount: 10_000, currency: 'EUR', payment_id: 'pay_1' },
    };
    given([opened, card, upgraded, paidUpgrade])
      .when({ type: 'RenewSubscription', at: '2026-02-01T00:00:00.000Z', pricing })
      .then([
        {
          type: 'SubscriptionRenewed',
          data: {
            period: 1,
            tier: 'team',
            previous_tier: 'team',
            period_start: '2026-02-01T00:00:00.000Z',
            period_end: '2026-03-01T00:00:00.000Z',
            credits: 300_000,
            amount: 24_900,
            currency: 'EUR',
            charged: true,
          },
        },
      ]);
  });

  it('a downgrade is scheduled for the end of the period; asking for the current tier cancels it', () => {
    const scheduled: AccountEvent = {
      type: 'SubscriptionDowngradeScheduled',
      data: { from_tier: 'developer', to_tier: 'free', at: midJanuary, effective_at: '2026-02-01T00:00:00.000Z' },
    };
    given([opened]).when({ type: 'ChangeTier', tier: 'free', at: midJanuary, pricing }).then([scheduled]);
    given([opened, scheduled]).when({ type: 'ChangeTier', tier: 'free', at: midJanuary, pricing }).then([]);
    given([opened, scheduled])
      .when({ type: 'ChangeTier', tier: 'developer', at: midJanuary, pricing })
      .then([
        { type: 'SubscriptionDowngradeCancelled', data: { tier: 'developer', cancelled_tier: 'free', at: midJanuary } },
      ]);
    given([opened]).when({ type: 'ChangeTier', tier: 'developer', at: midJanuary, pricing }).then([]);
  });

  it('renews every period that has ended, granting each period its allowance and applying a scheduled downgrade', () => {
    const scheduled: AccountEvent = {
      type: 'SubscriptionDowngradeScheduled',
      data: { from_tier: 'developer', to_tier: 'free', at: midJanuary, effective_at: '2026-02-01T00:00:00.000Z' },
    };
    given([opened, scheduled])
      .when({ type: 'RenewSubscription', at: '2026-03-05T00:00:00.000Z', pricing })
      .then([
        {
          type: 'SubscriptionRenewed',
          data: {
            period: 1,
            tier: 'free',
            previous_tier: 'developer',
            period_start: '2026-02-01T00:00:00.000Z',
            period_end: '2026-03-01T00:00:00.000Z',
            credits: 1000,
            amount: 0,
            currency: 'EUR',
            charged: true,
          },
        },
        {
          type: 'CreditsGranted',
          data: { reference: 'allowance:2026-02-01T00:00:00.000Z', credits: 1000, reason: 'free monthly allowance' },
        },
        {
          type: 'SubscriptionRenewed',
          data: {
            period: 2,
            tier: 'free',
            previous_tier: 'free',
            period_start: '2026-03-01T00:00:00.000Z',
            period_end: '2026-04-01T00:00:00.000Z',
            credits: 1000,
            amount: 0,
            currency: 'EUR',
            charged: true,
          },
        },
        {
          type: 'CreditsGranted',
          data: { reference: 'allowance:2026-03-01T00:00:00.000Z', credits: 1000, reason: 'free monthly allowance' },
        },
      ]);
    const firstBilled: AccountEvent = {
      type: 'SubscriptionRenewed',
      data: {
        period: 0,
        tier: 'developer',
        previous_tier: 'developer',
        period_start: '2026-01-01T00:00:00.000Z',
        period_end: '2026-02-01T00:00:00.000Z',
        credits: 0,
        amount: 4900,
        currency: 'EUR',
        charged: true,
      },
    };
    given([opened, firstBilled]).when({ type: 'RenewSubscription', at: '2026-01-31T23:59:59.999Z', pricing }).then([]);
  });

  it('periods keep the anchor day: an account opened on the 31st renews on the last day of shorter months', () => {
    const opened31: AccountEvent = {
      type: 'AccountOpened',
      data: { account_id: 'acc_2', tier: 'free', opened_at: '2026-01-31T10:00:00.000Z' },
    };
    given([opened31])
      .when({ type: 'RenewSubscription', at: '2026-02-28T10:00:00.000Z', pricing })
      .then([
        {
          type: 'SubscriptionRenewed',
          data: {
            period: 1,
            tier: 'free',
            previous_tier: 'free',
            period_start: '2026-02-28T10:00:00.000Z',
            period_end: '2026-03-31T10:00:00.000Z',
            credits: 1000,
            amount: 0,
            currency: 'EUR',
            charged: true,
          },
        },
        {
          type: 'CreditsGranted',
          data: { reference: 'allowance:2026-02-28T10:00:00.000Z', credits: 1000, reason: 'free monthly allowance' },
        },
      ]);
  });

  it('refuses a tier change once the period has ended, until it is renewed', () => {
    given([opened])
      .when({ type: 'ChangeTier', tier: 'team', at: '2026-02-02T00:00:00.000Z', pricing })
      .thenThrows(Problems.conflict);
  });
});
