import { expect } from 'chai';
import { accountDecider, type AccountEvent } from '../../../core/accounts/account.js';
import { PurchaseConflict } from '../../../core/accounts/purchase-intents.js';
import { deciderSpec } from '../jobs/decider-spec.js';

const given = deciderSpec(accountDecider);
const opened: AccountEvent = {
  type: 'AccountOpened',
  data: { account_id: 'acc_1', tier: 'developer', opened_at: '2026-01-01T00:00:00.000Z' },
};
const sale = { reference: 'pur_1', pack: 'small', credits: 10_000, amount: 1000, currency: 'EUR' };
const started: AccountEvent = { type: 'CreditPurchaseStarted', data: { ...sale, at: '2026-01-02T00:00:00.000Z' } };
const purchased: AccountEvent = { type: 'CreditsPurchased', data: { ...sale, payment_id: 'pay_1' } };
const start = { type: 'StartCreditPurchase', ...sale, at: '2026-01-02T00:00:00.000Z' } as const;
const abandon = { type: 'AbandonCreditPurchase', reference: 'pur_1', reason: 'nothing was charged' } as const;

describe('purchase intents of the account decider', () => {
  it('a purchase is recorded before it is charged, once', () => {
    given([opened]).when(start).then([started]);
    given([opened, started]).when(start).then([]);
    given([opened, started, purchased]).when(start).then([]);
  });

  it("an open purchase completes once with the provider's approval", () => {
    given([opened, started])
      .when({ type: 'PurchaseCredits', ...sale, paymentId: 'pay_1' })
      .then([purchased]);
    given([opened, started, purchased])
      .when({ type: 'PurchaseCredits', ...sale, paymentId: 'pay_1' })
      .then([]);
  });

  it('an open purchase the provider knows nothing of is abandoned; a closed one is not', () => {
    given([opened, started])
      .when(abandon)
      .then([{ type: 'CreditPurchaseAbandoned', data: { reference: 'pur_1', reason: 'nothing was charged' } }]);
    given([opened, started, purchased]).when(abandon).then([]);
    given([opened]).when(abandon).then([]);
  });

  it("a retry under a started purchase's reference buys the pack it started, never another", () => {
    const large = { ...start, pack: 'large', credits: 1_000_000, amount: 80_000 };
    given([opened, started]).when(large).thenThrows(PurchaseConflict);
    given([opened, started, purchased]).when(large).thenThrows(PurchaseConflict);
    // The same pack priced anew since: the purchase completes as it was started (the price the provider was asked).
    given([opened, started])
      .when({ ...start, amount: 1200 })
      .then([]);
    // Another pack of as many credits is still another pack.
    given([opened, started, purchased])
      .when({ ...start, pack: 'promo' })
      .thenThrows(PurchaseConflict);
  });

  it('a settled purchase is kept as it was sold: a retry after it settled is answered at that price', () => {
    const state = [opened, started, purchased].reduce(accountDecider.evolve, accountDecider.initialState());
    expect(state.credits.purchases.get('pur_1')).to.deep.equal({
      pack: 'small',
      credits: 10_000,
      amount: 1000,
      currency: 'EUR',
    });
  });
});
