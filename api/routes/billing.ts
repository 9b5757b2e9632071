import { TIERS, type Tier } from '../../core/accounts/profile.js';
import { PurchaseConflict } from '../../core/accounts/purchase-intents.js';
import type { IdempotentAttempt } from '../../core/billing/credit-purchases.js';
import { toMinorUnits } from '../../core/pricing/money.js';
import {
  PaymentDeclined,
  PaymentMethodRequired,
  PaymentProviderUnavailable,
  UnknownCreditPack,
  UnknownPaymentMethod,
} from '../../core/payments/payment-provider.js';
import {
  IdempotencyInFlight,
  idempotencyDecider,
  idempotencyStream,
  originalRequestOf,
} from '../../core/idempotency/idempotency.js';
import { problem } from '../../core/problems.js';
import { BILLING_PROJECTION, type BillingModel, type BillingRecord } from '../../projections/billing/billing.js';
import type { ApiContext } from '../http/context.js';
import { idempotencyKeyOf } from '../middleware/idempotency.js';
import { LiveKeyRequired, requireLiveKey } from '../http/modes.js';
import { paginate } from '../http/pagination.js';
import { defineRoute, type RouteGroup } from '../http/route.js';
import { listQuery, pageSchema, type ListQuery } from '../http/schemas.js';

const money = {
  type: 'object',
  required: ['amount', 'currency'],
  properties: {
    amount: { type: 'integer', description: "In the currency's minor unit (cents)." },
    currency: { type: 'string', examples: ['EUR'] },
  },
};
const tier = { enum: [...TIERS] };
const time = { type: 'string', format: 'date-time' };

const subscriptionSchema = {
  type: 'object',
  required: [
    'tier',
    'status',
    'current_period_start',
    'current_period_end',
    'pending_change',
    'monthly_price',
    'included_credits',
    'rate_limit_per_s',
    'concurrent_jobs',
    'payment_method',
    'unpaid',
  ],
  properties: {
    tier,
    status: {
      enum: ['active', 'past_due'],
      description:
        '`past_due`: a fee of the period was declined, or there is no payment method to charge it to; ' +
        'unpaid at the end of the period, the subscription moves to free.',
    },
    current_period_start: time,
    current_period_end: time,
    pending_change: {
      oneOf: [
        { type: 'null' },
        { type: 'object', required: ['tier', 'effective_at'], properties: { tier, effective_at: time } },
      ],
      description: 'A downgrade waiting for the end of the period.',
    },
    monthly_price: money,
    included_credits: { type: 'integer', description: 'Credits granted at each renewal.' },
    rate_limit_per_s: { type: 'integer' },
    concurrent_jobs: { type: ['integer', 'null'], description: 'null: unlimited.' },
    payment_method: { type: ['string', 'null'], description: "The payment provider's token that fees are charged to." },
    unpaid: { ...money, description: 'Fees of the current period not paid yet.' },
  },
};

const paymentToken = {
  type: 'string',
  minLength: 1,
  maxLength: 200,
  description: "From the payment provider's client library; the sandbox tokens are listed in docs/credits.md.",
  examples: ['tok_visa'],
};

const tierChangeSchema = {
  type: 'object',
  required: ['change', 'effective_at', 'credits_granted', 'amount', 'currency', 'payment', 'message', 'subscription'],
  properties: {
    change: { enum: ['upgraded', 'downgrade_scheduled', 'downgrade_cancelled', 'unchanged'] },
    effective_at: { ...time, description: 'Now for an upgrade; the end of the period for a downgrade.' },
    credits_granted: {
      type: 'integer',
      description:
        'Upgrade: the allowance difference, prorated for the rest of the period; ' +
        'granted once its fee is paid (0 until then), ' +
        'or at once for an invoiced account, whose fee goes on its invoice.',
    },
    amount: { type: 'integer', description: 'Billed now, minor units: the price difference, prorated.' },
    currency: { type: 'string' },
    payment: {
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          required: ['status', 'payment_id', 'decline_code'],
          properties: {
            status: { enum: ['paid', 'declined', 'unavailable'] },
            payment_id: { type: ['string', 'null'] },
            decline_code: { type: ['string', 'null'] },
          },
        },
      ],
      description:
        'The charge of `amount` to the payment method on file; null when nothing was charged (nothing to pay, ' +
        'or an invoiced account: its fee goes on its invoice). `unavailable`: ' +
        'the provider did not answer, the billing run charges it again.',
    },
    message: { type: 'string' },
    subscription: subscriptionSchema,
  },
};

const balanceSchema = {
  type: 'object',
  required: ['credits_available', 'credits_reserved', 'credit_packs'],
  properties: {
    credits_available: { type: 'integer' },
    credits_reserved: { type: 'integer', description: 'Held for jobs that are queued or running.' },
    credit_packs: {
      type: 'array',
      items: {
        type: 'object',
        required: ['pack', 'credits', 'price'],
        properties: { pack: { type: 'string' }, credits: { type: 'integer' }, price: money },
      },
    },
  },
};

const purchaseSchema = {
  type: 'object',
  required: ['id', 'pack', 'credits', 'amount', 'currency', 'payment_id', 'credits_available', 'credits_reserved'],
  properties: {
    id: { type: 'string', examples: ['pur_…'] },
    pack: { type: 'string' },
    credits: { type: 'integer' },
    amount: { type: 'integer' },
    currency: { type: 'string' },
    payment_id: { type: 'string' },
    credits_available: { type: 'integer' },
    credits_reserved: { type: 'integer' },
  },
};

const historySchema = {
  type: 'object',
  required: ['id', 'type', 'at', 'description', 'amount', 'currency', 'credits', 'tier', 'reference'],
  properties: {
    id: { type: 'string' },
    type: {
      enum: [
        'upgrade',
        'downgrade_scheduled',
        'downgrade_cancelled',
        'renewal',
        'lapsed',
        'payment_method_set',
        'fee_paid',
        'fee_declined',
        'purchase',
        'purchase_declined',
        'purchase_abandoned',
      ],
    },
    at: time,
    description: { type: 'string' },
    amount: {
      type: 'integer',
      description:
        'In minor units, as recorded when it happened: billed (upgrade, renewal, purchase), ' +
        'collected (fee_paid), or tried and not charged (fee_declined, purchase_declined, ' +
        'purchase_abandoned); 0 for a change that costs nothing now (a downgrade, a lapse).',
    },
    currency: {
      type: ['string', 'null'],
      description:
        "Of the amount; a downgrade or a lapse is in the subscription's currency. " +
        'null for payment_method_set (no money).',
    },
    credits: { type: 'integer', description: 'Credits granted.' },
    tier: { oneOf: [tier, { type: 'null' }] },
    reference: {
      type: ['string', 'null'],
      description:
        "The purchase id of a purchase; the fee's reference (`fee:<period start>`, " +
        '`upgrade:<period start>:<tier>`) of a renewal, an upgrade and their payments.',
    },
  },
};

/**
 * The Idempotency-Key this request holds the claim of (the idempotency middleware claimed it before the
 * handler runs), and the request it retries: a purchase is the same purchase for every retry of one use
 * of the key, and a new one for a later use of it.
 */
async function idempotentAttempt(ctx: ApiContext): Promise<IdempotentAttempt | undefined> {
  const key = idempotencyKeyOf(ctx.get('Idempotency-Key'));
  if (key === null) return undefined;
  const { accountId, mode } = ctx.state.auth;
  const { state } = await ctx.services.commands.load(idempotencyDecider, idempotencyStream(accountId, mode, key));
  const originalRequestId = originalRequestOf(state, ctx.state.requestId);
  if (originalRequestId === null)
    throw problem(IdempotencyInFlight, 'another attempt of this request took its Idempotency-Key over');
  return { key, originalRequestId };
}

const historyView = ({ position: _position, ...line }: BillingRecord) => line;

/**
 * The subscription, the balance and credit purchases, the billing history. The subscription and the
 * balance are folded from the account stream (what the next decision sees); the history is a projection.
 */
export const billingRoutes: RouteGroup = {
  tag: 'Billing',
  description: 'Subscription, credit balance and purchases, billing history.',
  routes: [
    defineRoute({
      method: 'GET',
      path: '/v1/billing/subscription',
      operationId: 'getSubscription',
      summary: 'Get the subscription',
      description: 'The tier, its period, price and limits, and what is due. Live keys only: the sandbox has no money.',
      scope: 'billing:read',
      responses: { 200: { description: 'The subscription.', content: { 'application/json': subscriptionSchema } } },
      problems: [LiveKeyRequired],
      async handle(ctx) {
        requireLiveKey(ctx, 'reading the subscription');
        ctx.body = await ctx.services.billing.subscription(ctx.state.auth.accountId);
      },
    }),
    defineRoute<Record<string, never>, Record<string, never>, { payment_token: string }>({
      method: 'PUT',
      path: '/v1/billing/payment-method',
      operationId: 'setPaymentMethod',
      summary: 'Set the payment method',
      description:
        'The payment method subscription fees are charged to: a token the payment provider holds ' +
        '(400 `unknown-payment-method` otherwise, and nothing is changed). Fees due (a declined one too) ' +
        'are charged to it at once; the answer is the subscription after that. Live keys only.',
      scope: 'billing:write',
      body: {
        content: {
          'application/json': {
            type: 'object',
            required: ['payment_token'],
            additionalProperties: false,
            properties: { payment_token: paymentToken },
          },
        },
      },
      responses: {
        200: { description: 'The subscription, fees charged.', content: { 'application/json': subscriptionSchema } },
      },
      problems: [LiveKeyRequired, UnknownPaymentMethod, PaymentProviderUnavailable],
      async handle(ctx, { body }) {
        requireLiveKey(ctx, 'setting a payment method');
        ctx.body = (
          await ctx.services.billing.setPaymentMethod(ctx.state.auth.accountId, body.payment_token)
        ).subscription;
      },
    }),
    defineRoute<Record<string, never>, Record<string, never>, { tier: Tier; payment_token?: string }>({
      method: 'POST',
      path: '/v1/billing/subscription',
      operationId: 'changeTier',
      summary: 'Change tier',
      description:
        'An upgrade takes effect now: the price difference, prorated for the rest of the period, ' +
        'is charged to the payment method on file (or to `payment_token`, which becomes it), ' +
        'and the allowance difference, prorated the same way, is granted once it is paid. ' +
        'A paid upgrade with no payment method is 402 `payment-method-required`. ' +
        'An invoiced account (opened by `finsynth accounts create`, and `acc_local`) is charged nothing here: ' +
        'its fee goes on its invoice, the allowance difference is granted at once, ' +
        'and no payment method is needed. A downgrade takes effect at the end of the period; ' +
        'asking for the current tier cancels a scheduled downgrade. ' +
        'The answer says which. Live keys only; honours Idempotency-Key.',
      scope: 'billing:write',
      body: {
        content: {
          'application/json': {
            type: 'object',
            required: ['tier'],
            additionalProperties: false,
            properties: { tier: { ...tier, examples: ['developer'] }, payment_token: paymentToken },
          },
        },
      },
      responses: { 200: { description: 'What changed, and when.', content: { 'application/json': tierChangeSchema } } },
      problems: [LiveKeyRequired, PaymentMethodRequired, UnknownPaymentMethod, PaymentProviderUnavailable],
      async handle(ctx, { body }) {
        requireLiveKey(ctx, 'changing the subscription');
        const { position: _position, ...answer } = await ctx.services.billing.changeTier(
          ctx.state.auth.accountId,
          body.tier,
          body.payment_token,
        );
        ctx.body = answer;
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/billing/credits',
      operationId: 'getCredits',
      summary: 'Get the credit balance',
      description: 'Credits available and reserved (held for jobs), and the credit packs one can buy. Live keys only.',
      scope: 'billing:read',
      responses: { 200: { description: 'The balance.', content: { 'application/json': balanceSchema } } },
      problems: [LiveKeyRequired],
      async handle(ctx) {
        requireLiveKey(ctx, 'reading the credit balance');
        const { pricing } = ctx.services.billing;
        ctx.body = {
          ...(await ctx.services.credits.balance(ctx.state.auth.accountId)),
          credit_packs: Object.entries(pricing.credit_packs).map(([pack, offer]) => ({
            pack,
            credits: offer.credits,
            price: { amount: toMinorUnits(offer.price, pricing.currency), currency: pricing.currency },
          })),
        };
      },
    }),
    defineRoute<Record<string, never>, Record<string, never>, { pack: string; payment_token: string }>({
      method: 'POST',
      path: '/v1/billing/credits',
      operationId: 'purchaseCredits',
      summary: 'Buy a credit pack',
      description:
        "Charges the pack's price to the payment method (`payment_token`, from the payment provider's client " +
        'library; the sandbox tokens are listed in docs/credits.md) and grants its credits. ' +
        'A declined payment grants nothing: 402 `payment-declined` with `decline_code`. ' +
        'The purchase is recorded before the charge: if the provider does not answer (502) ' +
        'or the service stops before recording the approval, the billing run settles it with the provider ' +
        'within minutes (credits granted once, or nothing charged), and the billing history shows which. ' +
        'Live keys only; send an Idempotency-Key so that a retry never pays twice: ' +
        'a retry under the same key (after a 5xx too) is the same purchase, ' +
        'charged once; the same key with another body is 422 `idempotency-key-reused`, ' +
        "also after a 5xx. After the key's 24 hours, the same key is a new purchase.",
      scope: 'billing:write',
      body: {
        content: {
          'application/json': {
            type: 'object',
            required: ['pack', 'payment_token'],
            additionalProperties: false,
            properties: {
              pack: { type: 'string', minLength: 1, maxLength: 64, examples: ['small'] },
              payment_token: paymentToken,
            },
          },
        },
      },
      responses: {
        201: {
          description: 'The purchase, and the balance after it.',
          content: { 'application/json': purchaseSchema },
        },
      },
      problems: [LiveKeyRequired, UnknownCreditPack, PurchaseConflict, PaymentDeclined, PaymentProviderUnavailable],
      async handle(ctx, { body }) {
        requireLiveKey(ctx, 'buying credits');
        const { accountId, mode } = ctx.state.auth;
        const idempotency = await idempotentAttempt(ctx);
        const { position: _position, ...purchase } = await ctx.services.billing.purchase({
          accountId,
          mode,
          pack: body.pack,
          paymentToken: body.payment_token,
          idempotency,
        });
        ctx.status = 201;
        ctx.body = purchase;
      },
    }),
    defineRoute<Record<string, never>, ListQuery>({
      method: 'GET',
      path: '/v1/billing/history',
      operationId: 'listBillingHistory',
      summary: 'Billing history',
      description:
        'Subscription changes, renewals (the first period too), fee payments and declines, lapses, ' +
        'payment method changes, and credit purchases (declined and abandoned ones too), newest first, ' +
        'with amounts and currency. Live keys only.',
      scope: 'billing:read',
      query: listQuery,
      responses: {
        200: { description: 'A page of the history.', content: { 'application/json': pageSchema(historySchema) } },
      },
      problems: [LiveKeyRequired],
      async handle(ctx, { query }) {
        requireLiveKey(ctx, 'reading the billing history');
        await ctx.services.projections.waitForHead();
        const account = ctx.services.projections.state<BillingModel>(BILLING_PROJECTION).get(ctx.state.auth.accountId);
        const page = paginate([...(account?.history ?? [])].reverse(), (line) => line.id, query);
        ctx.body = { ...page, data: page.data.map(historyView) };
      },
    }),
  ],
};
