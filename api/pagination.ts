import { Problems, problem } from '../core/problems.js';
import type { ListQuery } from './schemas.js';

export interface Page<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/**
 * Pages a list that is already in its stable order, by the id of the last item seen: the cursor is
 * opaque to clients (base64url of that id), and stays valid when items are added before it.
 */
export function paginate<T>(items: readonly T[], idOf: (item: T) => string, query: ListQuery): Page<T> {
  let start = 0;
  if (query.cursor !== undefined) {
    const after = decodeCursor(query.cursor);
    const index = items.findIndex((item) => idOf(item) === after);
    if (index === -1) throw problem(Problems.badRequest, 'the cursor does not belong to this list');
    start = index + 1;
  }
  const data = items.slice(start, start + query.limit);
  const hasMore = start + query.limit < items.length;
  return { data, has_more: hasMore, next_cursor: hasMore ? encodeCursor(idOf(data.at(-1)!)) : null };
}

export const encodeCursor = (id: string): string => Buffer.from(id, 'utf8').toString('base64url');

export function decodeCursor(cursor: string): string {
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (id.length === 0 || encodeCursor(id) !== cursor) throw problem(Problems.badRequest, 'the cursor is malformed');
  return id;
}
