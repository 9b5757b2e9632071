/** One page of a list, as every list operation answers. */
export interface Page<Item = unknown> {
  data: Item[];
  has_more: boolean;
  next_cursor: string | null;
}

/**
 * A list, as Stripe's clients return one: awaiting it gives its first page; iterating it with `for await`
 * gives every item of every page, each page asked for when the one before is used up (following
 * `next_cursor`); `pages()` gives the pages themselves. The first page is asked for once, when first used.
 */
export class PageList<Item, P extends Page<Item> = Page<Item>> implements PromiseLike<P>, AsyncIterable<Item> {
  #first: Promise<P> | undefined;

  constructor(private readonly fetchPage: (cursor: string | undefined) => Promise<P>) {}

  /** The first page. */
  firstPage(): Promise<P> {
    this.#first ??= this.fetchPage(undefined);
    return this.#first;
  }

  then<Fulfilled = P, Rejected = never>(
    onFulfilled?: ((page: P) => Fulfilled | PromiseLike<Fulfilled>) | null,
    onRejected?: ((reason: unknown) => Rejected | PromiseLike<Rejected>) | null,
  ): Promise<Fulfilled | Rejected> {
    return this.firstPage().then(onFulfilled, onRejected);
  }

  /** Every page, the first one first. */
  async *pages(): AsyncGenerator<P, void, undefined> {
    let page = await this.firstPage();
    yield page;
    while (page.has_more && page.next_cursor !== null) {
      page = await this.fetchPage(page.next_cursor);
      yield page;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }

  /** Every item, at most `max` of them (all by default), in one array. */
  async toArray(options: { max?: number } = {}): Promise<Item[]> {
    const max = options.max ?? Number.POSITIVE_INFINITY;
    const items: Item[] = [];
    if (max <= 0) return items;
    for await (const item of this) {
      items.push(item);
      if (items.length >= max) break;
    }
    return items;
  }
}
