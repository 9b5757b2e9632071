import { PeerPermutation, peerCount, peerSeed, Rng, type RowContext } from '../../core/packs/sdk.js';
import { legAmounts, type Leg } from './internal-transfers.js';
import { AML, AML_TYPOLOGIES, PRICE_LEVEL, type Typology } from './reference-data.js';

/**
 * Money-laundering motifs planted among the accounts (the typologies of AMLSim and AMLworld, and structuring),
 * as many as the request's `aml_motifs` rows. Motif m occupies block m of a permuted account order, so an account
 * finds its motif from its index alone, and a motif's members, flows, times and amounts come from a stream of
 * (dataset, motif): the accounts booking its legs and the ground-truth row all derive the same motif.
 */

/** One flow of a motif: between two members (positions in `members`), or a cash deposit (`from` -1). */
export interface Flow {
  from: number;
  to: number;
  time: number;
  /** In euro terms, whole units. */
  euros: number;
}

export interface Motif {
  index: number;
  typology: Typology;
  /** Account indices; empty when the dataset has too few accounts or rows to plant it. */
  members: number[];
  flows: Flow[];
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ORDER_SLOT = 0x7fff_0001;

/**
 * The motifs planted: the aml_motifs table's rows, or none when the request does not ask for it. Asking a plan
 * for a table it lacks throws, which costs a stack trace; the answer is kept per context (one per table and plan).
 */
const plannedMotifs = new WeakMap<object, number>();
export function motifCount(ctx: RowContext<unknown>): number {
  let motifs = plannedMotifs.get(ctx);
  if (motifs === undefined) plannedMotifs.set(ctx, (motifs = tableRows(ctx, 'aml_motifs') ?? 0));
  return motifs;
}

function tableRows(ctx: RowContext<unknown>, table: string): number | undefined {
  try {
    return ctx.rowsOf(table);
  } catch {
    // The table is not part of the request's plan.
    return undefined;
  }
}

/** The order of accounts motifs take their blocks from, and how many accounts the motifs' blocks cover. */
export class MotifBlocks {
  readonly order: PeerPermutation;
  readonly covered: number;

  constructor(
    readonly accounts: number,
    readonly seed: number,
    motifs: number,
  ) {
    this.order = new PeerPermutation(accounts, seed, ORDER_SLOT);
    this.covered = Math.min(motifs, Math.floor(accounts / AML.block)) * AML.block;
  }

  /** The motif whose block holds the account, or -1; accounts in a block take no part in internal transfers. */
  motifOf(account: number): number {
    const position = this.order.from(account);
    return position < this.covered ? Math.floor(position / AML.block) : -1;
  }
}

/**
 * Motif `index`: its typology and size drawn from its stream, its members the first accounts of its block with rows
 * enough for any member's legs and the top-up row before each, its flows in time order, within the 60 days before
 * the as-of date's end.
 */
export function motifAt(ctx: RowContext<unknown>, blocks: MotifBlocks, index: number): Motif {
  const rng = new Rng(peerSeed(blocks.seed, ORDER_SLOT, index), 0);
  const typology = pickTypology(rng);
  const spec = AML_TYPOLOGIES[typology];
  const size = rng.int(spec.min, spec.max);
  const members: number[] = [];
  const transactions = tableRows(ctx, 'transactions');
  if ((index + 1) * AML.block <= blocks.covered)
    for (let position = index * AML.block; position < (index + 1) * AML.block && members.length < size; position++) {
      const account = blocks.order.to(position);
      const rows =
        transactions === undefined ? Infinity : peerCount(transactions, blocks.accounts, account, blocks.seed);
      if (rows >= AML.min_rows) members.push(account);
    }
  if (members.length < size) return { index, typology, members: [], flows: [] };
  const flows = flowsOf(typology, size, rng, ctx.asOfEnd);
  // A random motif may leave a member out: members are the accounts its flows touch, in their order.
  const used = members.map((_, i) => i).filter((i) => flows.some((flow) => flow.from === i || flow.to === i));
  if (used.length === members.length) return { index, typology, members, flows };
  const position = new Map(used.map((old, i) => [old, i]));
  return {
    index,
    typology,
    members: used.map((i) => members[i]),
    flows: flows.map((flow) => ({
      ...flow,
      from: flow.from === -1 ? -1 : position.get(flow.from)!,
      to: position.get(flow.to)!,
    })),
  };
}

function pickTypology(rng: Rng): Typology {
  let target = rng.next() * AML.total_weight;
  for (const [name, spec] of Object.entries(AML_TYPOLOGIES) as [Typology, (typeof AML_TYPOLOGIES)[Typology]][])
    if ((target -= spec.weight) < 0) return name;
  return 'random';
}

/** The flows of a motif of `size` members, stage after stage (a stage is a few hours to two days after the last). */
function flowsOf(typology: Typology, size: number, rng: Rng, asOfEnd: number): Flow[] {
  const flows: Flow[] = [];
  let time = asOfEnd - AML.window_days * DAY + Math.floor(rng.next() * (AML.window_days - 20) * DAY);
  const stage = () => {
    time += Math.floor((2 + rng.next() * 46) * HOUR);
  };
  // What enters the motif, in euro terms; each hop keeps a few per cent for the member passing it on.
  const amount = Math.round(Math.exp(rng.normal(AML.mu, AML.sigma)));
  const hop = (euros: number) => Math.max(1, Math.round(euros * (1 - rng.next() * 0.05)));
  const flow = (from: number, to: number, euros: number) => flows.push({ from, to, time, euros });
  const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
  switch (typology) {
    case 'fan_out':
      for (const to of range(1, size)) {
        stage();
        flow(0, to, hop(amount / (size - 1)));
      }
      break;
    case 'fan_in':
      for (const from of range(1, size)) {
        stage();
        flow(from, 0, hop(amount / (size - 1)));
      }
      break;
    case 'cycle': {
      let euros = amount;
      for (const from of range(0, size)) {
        stage();
        euros = hop(euros);
        flow(from, (from + 1) % size, euros);
      }
      break;
    }
    case 'scatter_gather': {
      const middle = range(1, size - 1);
      stage();
      const parts = middle.map(() => hop(amount / middle.length));
      middle.forEach((to, i) => flow(0, to, parts[i]));
      stage();
      middle.forEach((from, i) => flow(from, size - 1, hop(parts[i])));
      break;
    }
    case 'gather_scatter': {
      const half = Math.floor((size - 1) / 2);
      stage();
      const parts = range(1, half + 1).map(() => hop(amount / half));
      parts.forEach((euros, i) => flow(i + 1, 0, euros));
      const total = parts.reduce((a, b) => a + b, 0);
      stage();
      for (const to of range(half + 1, size)) flow(0, to, hop(total / (size - 1 - half)));
      break;
    }
    case 'bipartite': {
      const half = Math.floor(size / 2);
      stage();
      for (const from of range(0, half)) for (const to of range(half, size)) flow(from, to, hop(amount / size));
      break;
    }
    case 'stacked_bipartite': {
      const third = Math.floor(size / 3);
      const layers = [range(0, third), range(third, 2 * third), range(2 * third, size)];
      for (const [upper, lower] of [
        [layers[0], layers[1]],
        [layers[1], layers[2]],
      ]) {
        stage();
        for (const from of upper) for (const to of lower) flow(from, to, hop(amount / size));
      }
      break;
    }
    case 'random':
      for (let i = 0; i < size; i++) {
        const from = rng.int(0, size - 1);
        const to = (from + rng.int(1, size - 1)) % size;
        stage();
        flow(from, to, hop(amount / size));
      }
      break;
    case 'structuring':
      // Cash paid in just under the reporting threshold, day after day, so that no deposit is reported.
      for (let i = rng.int(AML.deposits[0], AML.deposits[1]); i > 0; i--) {
        time += Math.floor((20 + rng.next() * 8) * HOUR);
        flow(-1, 0, Math.floor(AML.threshold * (AML.below[0] + rng.next() * (AML.below[1] - AML.below[0]))));
      }
      break;
  }
  return flows;
}

/** A motif's key for transfer_id: `aml_` and the motif and the flow, in hexadecimal. */
export function flowId(motif: number, flow: number): string {
  return `aml_${motif.toString(16).padStart(8, '0')}_${flow.toString(16).padStart(4, '0')}`;
}

/** The legs an account books for its motif: transfers with the other members, and cash deposits. */
export function motifLegs(
  ctx: RowContext<unknown>,
  blocks: MotifBlocks,
  index: number,
  self: number,
  currency: string,
): Leg[] {
  const motif = motifAt(ctx, blocks, index);
  const me = motif.members.indexOf(self);
  if (me < 0) return [];
  const motifId = ctx.key('aml_motifs', index);
  const legs: Leg[] = [];
  motif.flows.forEach((flow, f) => {
    const common = { time: flow.time, typology: motif.typology, motifId };
    if (flow.from === -1) {
      if (flow.to === me) {
        // Whole units of the local currency, below the threshold's equivalent.
        const amount = ctx.helpers.toMinor(Math.floor(flow.euros * (PRICE_LEVEL[currency] ?? 1)), currency);
        legs.push({ ...common, amount, peerIban: null, peerName: null, transferId: null });
      }
      return;
    }
    if (flow.from !== me && flow.to !== me) return;
    const outgoing = flow.from === me;
    const peer = motif.members[outgoing ? flow.to : flow.from];
    const account = ctx.lookup('accounts', peer);
    const peerCurrency = String(account.currency);
    const peerIban = String(account.iban);
    const customer = ctx.lookup('customers', ctx.refOf('accounts', peer, 'customer_id'));
    const { sent, received } = legAmounts(
      ctx,
      flow.euros,
      outgoing ? currency : peerCurrency,
      outgoing ? peerCurrency : currency,
    );
    legs.push({
      ...common,
      amount: outgoing ? -sent : received,
      peerIban,
      peerName: String(customer.name),
      transferId: flowId(index, f),
    });
  });
  return legs;
}
