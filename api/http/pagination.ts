import { Problems, problem } from '../../core/problems.js';
import type { ListQuery } from './schemas.js';

export interface Page<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/**
 * Pages a list that is already in its stable order, by the id of the last item seen: the cursor is
 * opaque to clients (base64url of that id), and stays valid when items are added before it. `items` is
 * the whole list, also what the request does not show (`shown` false: a deleted config, a job no longer
 * in the state asked for), so that the cursor's item is still found after it left the page's view.
 */
export function paginate<T>(
  items: readonly T[],
  idOf: (item: T) => string,
  query: ListQuery,
  shown: (item: T) => boolean = () => true,
): Page<T> {
  let next = 0;
  if (query.cursor !== undefined) {
    const after = decodeCursor(query.cursor);
    const index = items.findIndex((item) => idOf(item) === after);
    if (index === -1) throw invalidCursor('the cursor does not belong to this list');
    next = index + 1;
  }
  const data: T[] = [];
  for (; next < items.length && data.length < query.limit; next++) if (shown(items[next])) data.push(items[next]);
  let hasMore = false;
  for (; next < items.length && !hasMore; next++) hasMore = shown(items[next]);
  return { data, has_more: hasMore, next_cursor: hasMore ? encodeCursor(idOf(data.at(-1)!)) : null };
}

/** A cursor this list did not give is a query parameter that fails its check, as every list operation documents. */
export const invalidCursor = (message: string) =>
  problem(Problems.validation, message, { errors: [{ in: 'query', pointer: '/cursor', message }] });

export const encodeCursor = (id: string): string => Buffer.from(id, 'utf8').toString('base64url');

export function decodeCursor(cursor: string): string {
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (id.length === 0 || encodeCursor(id) !== cursor) throw invalidCursor('the cursor is malformed');
  return id;
}
