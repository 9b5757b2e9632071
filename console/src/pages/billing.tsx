import type { Tier } from '@finsynth/client';
import { useState } from 'preact/hooks';
import { can, useSession } from '../session/session.js';
import { describedBy, Field } from '../ui/field.js';
import { fieldError, ProblemView } from '../ui/problem-view.js';
import { useAction, useLoad } from '../ui/use-load.js';

const TIERS: Tier[] = ['free', 'developer', 'team', 'scale'];

/** The payment provider's sandbox cards (docs/credits.md): approved, then declined for each reason. */
const SANDBOX_CARDS = [
  ['tok_visa', 'Visa (approved)'],
  ['tok_mastercard', 'Mastercard (approved)'],
  ['tok_amex', 'American Express (approved)'],
  ['tok_chargeDeclined', 'Declined card'],
  ['tok_chargeDeclinedInsufficientFunds', 'Declined: insufficient funds'],
  ['tok_chargeDeclinedExpiredCard', 'Declined: expired card'],
] as const;

const money = (amount: number, currency: string | null): string =>
  currency ? new Intl.NumberFormat('en', { style: 'currency', currency }).format(amount / 100) : '';

function CardSelect({ id, value, onChange }: { id: string; value: string; onChange(value: string): void }) {
  return (
    <Field id={id} label="Sandbox card">
      <select id={id} value={value} onChange={(event) => onChange(event.currentTarget.value)}>
        {SANDBOX_CARDS.map(([token, label]) => (
          <option key={token} value={token}>
            {label}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** Balance and reserved credits, the subscription and its tier, credit purchases, and the billing history. */
export function BillingPage() {
  const { session } = useSession();
  const credits = useLoad(() => session.client.billing.credits(), []);
  const subscription = useLoad(() => session.client.billing.subscription(), []);
  const history = useLoad(() => session.client.billing.history({ limit: 50 }), []);
  const [tier, setTier] = useState<Tier>('team');
  const [tierCard, setTierCard] = useState('tok_visa');
  const [pack, setPack] = useState('');
  const [packCard, setPackCard] = useState('tok_visa');
  const [message, setMessage] = useState<string | undefined>(undefined);
  const reloadAll = () => {
    credits.reload();
    subscription.reload();
    history.reload();
  };
  const changeTier = useAction(async () => {
    const answer = await session.client.billing.changeTier(tier, { payment_token: tierCard });
    setMessage(answer.message);
    reloadAll();
  });
  const purchase = useAction(async () => {
    const chosen = pack || credits.data?.credit_packs[0]?.pack || '';
    const answer = await session.client.billing.purchase({ pack: chosen, payment_token: packCard });
    setMessage(`Bought ${answer.credits.toLocaleString('en')} credits for ${money(answer.amount, answer.currency)}.`);
    reloadAll();
  });
  const writable = can(session, 'billing:write');

  return (
    <>
      <h1 tabIndex={-1}>Billing</h1>
      {message && (
        <p class="notice" role="status">
          {message}
        </p>
      )}
      <section aria-labelledby="balance-heading">
        <h2 id="balance-heading">Balance</h2>
        {credits.error !== undefined && <ProblemView error={credits.error} />}
        {credits.data && (
          <dl class="facts" aria-label="Balance">
            <dt>Available</dt>
            <dd>{credits.data.credits_available.toLocaleString('en')} credits</dd>
            <dt>Reserved for jobs</dt>
            <dd>{credits.data.credits_reserved.toLocaleString('en')} credits</dd>
          </dl>
        )}
        {credits.data && writable && (
          <form
            class="inline-form"
            onSubmit={(event) => {
              event.preventDefault();
              purchase.run();
            }}
          >
            <Field id="credit-pack" label="Credit pack" error={fieldError(purchase.error, '/pack')}>
              <select
                {...describedBy('credit-pack', fieldError(purchase.error, '/pack'))}
                value={pack || credits.data.credit_packs[0]?.pack}
                onChange={(event) => setPack(event.currentTarget.value)}
              >
                {credits.data.credit_packs.map((each) => (
                  <option key={each.pack} value={each.pack}>
                    {each.pack}: {each.credits.toLocaleString('en')} credits,{' '}
                    {money(each.price.amount, each.price.currency)}
                  </option>
                ))}
              </select>
            </Field>
            <CardSelect id="pack-card" value={packCard} onChange={setPackCard} />
            <button type="submit" disabled={purchase.pending}>
              Buy credits
            </button>
          </form>
        )}
        {purchase.error !== undefined && <ProblemView error={purchase.error} label="Purchase problem" />}
      </section>

      <section aria-labelledby="subscription-heading">
        <h2 id="subscription-heading">Subscription</h2>
        {subscription.error !== undefined && <ProblemView error={subscription.error} />}
        {subscription.data && (
          <dl class="facts" aria-label="Subscription">
            <dt>Tier</dt>
            <dd>{subscription.data.tier}</dd>
            <dt>Status</dt>
            <dd>{subscription.data.status}</dd>
            <dt>Period</dt>
            <dd>
              {subscription.data.current_period_start.slice(0, 10)} to{' '}
              {subscription.data.current_period_end.slice(0, 10)}
            </dd>
            <dt>Price</dt>
            <dd>
              {money(subscription.data.monthly_price.amount, subscription.data.monthly_price.currency)} a month,{' '}
              {subscription.data.included_credits.toLocaleString('en')} credits included
            </dd>
            {subscription.data.pending_change && (
              <>
                <dt>Scheduled</dt>
                <dd>
                  {subscription.data.pending_change.tier} from{' '}
                  {subscription.data.pending_change.effective_at.slice(0, 10)}
                </dd>
              </>
            )}
            <dt>Payment method</dt>
            <dd>{subscription.data.payment_method ?? 'none'}</dd>
          </dl>
        )}
        {subscription.data && writable && (
          <form
            class="inline-form"
            onSubmit={(event) => {
              event.preventDefault();
              changeTier.run();
            }}
          >
            <Field id="tier" label="Tier" error={fieldError(changeTier.error, '/tier')}>
              <select
                {...describedBy('tier', fieldError(changeTier.error, '/tier'))}
                value={tier}
                onChange={(event) => setTier(event.currentTarget.value as Tier)}
              >
                {TIERS.map((each) => (
                  <option key={each} value={each}>
                    {each}
                  </option>
                ))}
              </select>
            </Field>
            <CardSelect id="tier-card" value={tierCard} onChange={setTierCard} />
            <button type="submit" disabled={changeTier.pending}>
              Change tier
            </button>
          </form>
        )}
        {changeTier.error !== undefined && <ProblemView error={changeTier.error} label="Tier change problem" />}
      </section>

      <section aria-labelledby="history-heading">
        <h2 id="history-heading">History</h2>
        {history.error !== undefined && <ProblemView error={history.error} />}
        {history.data && (
          <div class="table-scroll" tabIndex={0} role="region" aria-label="Billing history">
            <table class="data">
              <caption>Billing history, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">when</th>
                  <th scope="col">what</th>
                  <th scope="col">amount</th>
                  <th scope="col">credits</th>
                </tr>
              </thead>
              <tbody>
                {history.data.data.map((entry) => (
                  <tr key={entry.id}>
                    <th scope="row">{new Date(entry.at).toLocaleString('en-GB')}</th>
                    <td>{entry.description}</td>
                    <td class="number">{money(entry.amount, entry.currency)}</td>
                    <td class="number">{entry.credits.toLocaleString('en')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
