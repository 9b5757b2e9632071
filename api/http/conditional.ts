/**
 * Whether an `If-None-Match` header names the current representation, by RFC 9110 section 13.1.2: the
 * comparison is weak (`W/"x"` matches `"x"`), and `*` matches any current representation. (Koa's
 * `ctx.fresh` also gives up when the request says `Cache-Control: no-cache`, which fetch clients add to
 * every conditional request: that is for shared caches, not for the origin.)
 */
export function noneMatchHolds(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((candidate) => opaque(candidate) === opaque(etag));
}
