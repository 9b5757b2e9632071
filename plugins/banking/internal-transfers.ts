import { PeerPermutation, peerCount, peerSeed, Rng, type RowContext } from '../../core/packs/sdk.js';
import { INTERNAL_TRANSFER, PRICE_LEVEL } from './reference-data.js';

/**
 * Transfers between two accounts of the dataset. Accounts are generated apart (each in time order with its running
 * balance), so each account derives both the transfers it sends and those it receives from indices alone: on slot
 * j, account i sends to PeerPermutation_j.to(i) and receives from PeerPermutation_j.from(i), and a transfer's time
 * and amount come from a stream of (dataset, slot, sender), so both legs agree. Every account knows every other's
 * row count (`peerCount` is the table's `rows_per_parent`), so a transfer is booked only where both accounts have
 * room for their leg.
 */

/** One side of an internal transfer, as the account it is booked on sees it. */
export interface Leg {
  time: number;
  /** Signed, in minor units of this account's currency: negative on the sending side. */
  amount: number;
  /** The other account (null for a cash deposit). */
  peerIban: string | null;
  peerName: string | null;
  transferId: string | null;
  /** A laundering motif's flow: its typology and the motif's key; null otherwise. */
  typology: string | null;
  motifId: string | null;
}

export interface TransferOptions {
  start_date: string;
  days: number;
  internal_transfer_rate: number;
}

/** The account's own side: what the legs need to know of it. */
interface Self {
  index: number;
  count: number;
  currency: string;
  start: number;
}

const DAY = 86_400_000;
const TWO_POW_32 = 4_294_967_296;
/** Internal legs per row for a rate of 1 - rate of transfers that are internal (calibrated on the defaults). */
const LEGS_PER_ROW = 0.32;

/** The seed every account of a dataset shares: the first account's key, which the plan's seed decides. */
export function datasetSeed(ctx: RowContext<unknown>): number {
  const key = ctx.key('accounts', 0);
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** The transactions' period: from the option's start (or the account's opening) to its end or the as-of day. */
export function periodOf(ctx: RowContext<TransferOptions>, openedOn: string): { start: number; end: number } {
  let from = Date.parse(ctx.options.start_date);
  // A period that would begin after the as-of day covers the days before it instead: an earlier as_of keeps data.
  if (from >= ctx.asOfEnd) from = ctx.asOfEnd - ctx.options.days * DAY;
  const end = Math.min(from + ctx.options.days * DAY, ctx.asOfEnd);
  const start = Math.max(from, Date.parse(openedOn));
  // An account opened after the period books its rows in the period's last day.
  return { start: Math.min(start, end - DAY), end };
}

/** The slots an account of `count` rows can take part in: at most one leg received per slot. */
function capacity(count: number): number {
  return Math.floor(count * INTERNAL_TRANSFER.max_share_of_rows);
}

/** How many slots an account sends on: in proportion to its rows, the fraction rounded by its own draw. */
function sends(count: number, seed: number, index: number, rate: number): number {
  if (rate <= 0) return 0;
  const perRow = (LEGS_PER_ROW * rate) / (2 * (1 - rate));
  return Math.min(capacity(count), Math.floor(count * perRow + peerSeed(seed, -1, index) / TWO_POW_32));
}

/** Every account's row count: the requested rows spread over the accounts, computable for any of them. */
export function accountRows(ctx: RowContext<unknown>, seed = datasetSeed(ctx)): number {
  return peerCount(ctx.rows, ctx.rowsOf('accounts'), ctx.parent, seed);
}

/**
 * The internal legs of an account in time order. A transfer exists when the sender sends on the slot, the
 * receiver has room for a leg on it, they are two accounts, and their periods overlap; both sides decide it alike.
 */
export function internalLegs(
  ctx: RowContext<TransferOptions>,
  self: Self,
  seed: number,
  inMotif: (account: number) => boolean,
): Leg[] {
  const rate = ctx.options.internal_transfer_rate;
  const accounts = ctx.rowsOf('accounts');
  const legs: Leg[] = [];
  const own = capacity(self.count);
  const sent = sends(self.count, seed, self.index, rate);
  // Accounts of a laundering motif's block stay out, so that their rows hold the motif's legs.
  if (own === 0 || rate <= 0 || accounts < 2 || inMotif(self.index)) return legs;
  for (let slot = 0; slot < own; slot++) {
    const permutation = new PeerPermutation(accounts, seed, slot);
    const to = permutation.to(self.index);
    if (slot < sent && to !== self.index && !inMotif(to) && slot < capacity(peerCount(ctx.rows, accounts, to, seed)))
      addLeg(ctx, legs, self, to, slot, true, seed);
    const from = permutation.from(self.index);
    if (
      from !== self.index &&
      !inMotif(from) &&
      slot < sends(peerCount(ctx.rows, accounts, from, seed), seed, from, rate)
    )
      addLeg(ctx, legs, self, from, slot, false, seed);
  }
  return legs.sort((a, b) => a.time - b.time);
}

/** A transfer's two amounts in minor units: what the sender pays (whole units) and what the receiver gets. */
export function legAmounts(
  ctx: RowContext<unknown>,
  euros: number,
  senderCurrency: string,
  receiverCurrency: string,
): { sent: number; received: number } {
  const senderScale = PRICE_LEVEL[senderCurrency] ?? 1;
  const sentMajor = Math.max(1, Math.round(euros * senderScale));
  const received =
    senderCurrency === receiverCurrency ? sentMajor : (sentMajor / senderScale) * (PRICE_LEVEL[receiverCurrency] ?? 1);
  return {
    sent: ctx.helpers.toMinor(sentMajor, senderCurrency),
    received: Math.max(1, ctx.helpers.toMinor(received, receiverCurrency)),
  };
}

function addLeg(
  ctx: RowContext<TransferOptions>,
  legs: Leg[],
  self: Self,
  peer: number,
  slot: number,
  outgoing: boolean,
  seed: number,
): void {
  const account = ctx.lookup('accounts', peer);
  const peerIban = String(account.iban);
  const peerCurrency = String(account.currency);
  const earliest = Math.max(self.start, periodOf(ctx, String(account.opened_on)).start);
  const { end } = periodOf(ctx, String(account.opened_on));
  if (earliest >= end) return;
  const sender = outgoing ? self.index : peer;
  const rng = new Rng(peerSeed(seed, slot, sender), 0);
  const time = Math.floor(earliest + rng.next() * (end - earliest));
  // Drawn in euro terms, in whole units of the sender's currency; the receiver gets it at the price-level rate.
  const senderCurrency = outgoing ? self.currency : peerCurrency;
  const receiverCurrency = outgoing ? peerCurrency : self.currency;
  const euros = Math.exp(rng.normal(INTERNAL_TRANSFER.mu, INTERNAL_TRANSFER.sigma));
  const { sent, received } = legAmounts(ctx, euros, senderCurrency, receiverCurrency);
  const customer = ctx.lookup('customers', ctx.refOf('accounts', peer, 'customer_id'));
  legs.push({
    time,
    amount: outgoing ? -sent : received,
    peerIban,
    peerName: String(customer.name),
    transferId: `trf_${sender.toString(16).padStart(8, '0')}_${slot.toString(16).padStart(4, '0')}`,
    typology: null,
    motifId: null,
  });
}
