import { addDays, daysBetween, Rng, type RowContext } from '../../core/packs/sdk.js';

/**
 * Which card a row of `cards` is: a holder's first card, or the reissue of the card in the row before it, sent
 * when that card's expiry month begins (a new PAN and expiry, the same holder). Rows come in blocks of
 * CARDS_PER_BLOCK: a block's first row is a first card, and each following row reissues the one before when that
 * one is due for renewal by the as-of date, and is a first card of its own otherwise. A row works its block out
 * from the block's first row (at most CARDS_PER_BLOCK - 1 steps), so that any row, and any transaction, knows its
 * card's place in a lineage without generating the rows before it.
 */

export const CARDS_PER_BLOCK = 4;
/** A card expires at the end of its issue month, this many years on. */
export const CARD_LIFE_YEARS = 4;
/** The days a holder's first card is issued between (the holder's start and the as-of date narrow them). */
export const FIRST_ISSUE = { from: '2021-01-01', to: '2025-06-30' } as const;

export interface CardLife {
  /** The cardholder's row. */
  holder: number;
  /** Issue day, YYYY-MM-DD. */
  issued: string;
  /** Expiry as printed on the card, MM/YY. */
  expiry: string;
  /** The first instant after the expiry month (ms). */
  expiresAt: number;
  /** The first day of the expiry month, YYYY-MM-DD: when the reissue is sent. */
  renewal: string;
  /** The row of the card this one replaces; -1 for a first card. */
  predecessor: number;
  /** Whether the next row reissues this card (the holder then uses that one from its issue day). */
  replaced: boolean;
}

/** The card of row `index` of `cards`, from any table of the pack. */
export function cardLife(ctx: RowContext<unknown>, index: number): CardLife {
  const first = index - (index % CARDS_PER_BLOCK);
  let life = firstCardOf(ctx, first);
  for (let row = first + 1; row <= index; row++)
    life = life.renewal <= ctx.asOf ? reissue(life, row - 1) : firstCardOf(ctx, row);
  const replaced = index + 1 < first + CARDS_PER_BLOCK && index + 1 < ctx.rowsOf('cards') && life.renewal <= ctx.asOf;
  return { ...life, replaced };
}

/** First cards of recent rows, per table context: the rows of a block, and their transactions, walk the same ones. */
const FIRST_CARD_SLOTS = 16;
const firstCards = new WeakMap<object, { rows: Float64Array; lives: CardLife[] }>();

function firstCardOf(ctx: RowContext<unknown>, row: number): CardLife {
  let cache = firstCards.get(ctx);
  if (cache === undefined) {
    cache = { rows: new Float64Array(FIRST_CARD_SLOTS).fill(-1), lives: new Array<CardLife>(FIRST_CARD_SLOTS) };
    firstCards.set(ctx, cache);
  }
  const slot = row & (FIRST_CARD_SLOTS - 1);
  if (cache.rows[slot] === row) return cache.lives[slot];
  const life = firstCard(ctx, row);
  cache.rows[slot] = row;
  cache.lives[slot] = life;
  return life;
}

/**
 * A first card: its drawn holder, issued on a day drawn from a stream every row of the block can make again (seeded
 * by the row's key, which is a function of the plan's seed and the row alone).
 */
function firstCard(ctx: RowContext<unknown>, row: number): CardLife {
  const holder = ctx.refOf('cards', row, 'cardholder_id');
  const since = dayOf(ctx.lookup('cardholders', holder).created_at);
  let from = since > FIRST_ISSUE.from ? since : FIRST_ISSUE.from;
  let to = ctx.asOf < FIRST_ISSUE.to ? ctx.asOf : FIRST_ISSUE.to;
  if (from > to) {
    // A holder who joined after the usual range, or an as-of date before it: any day they could have had it.
    from = since < ctx.asOf ? since : ctx.asOf;
    to = ctx.asOf;
  }
  const rng = new Rng(seedOf(ctx.key('cards', row)), 0);
  return lifeFrom(holder, addDays(from, rng.int(0, daysBetween(from, to))), -1);
}

function reissue(card: CardLife, row: number): CardLife {
  return lifeFrom(card.holder, card.renewal, row);
}

function lifeFrom(holder: number, issued: string, predecessor: number): CardLife {
  const year = Number(issued.slice(0, 4)) + CARD_LIFE_YEARS;
  const month = issued.slice(5, 7);
  return {
    holder,
    issued,
    expiry: `${month}/${String(year % 100).padStart(2, '0')}`,
    // Month numbers count from 1 and Date.UTC's from 0: the expiry month's number is the next month's index.
    expiresAt: Date.UTC(year, Number(month), 1),
    renewal: `${year}-${month}-01`,
    predecessor,
    replaced: false,
  };
}

/** The day of a date or timestamp value, whether text or milliseconds. */
function dayOf(value: unknown): string {
  return typeof value === 'number' ? new Date(value).toISOString().slice(0, 10) : String(value).slice(0, 10);
}

/** A 32-bit seed from text (FNV-1a). */
function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
