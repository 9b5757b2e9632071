/** The console's pages: each is a `#/name` address, and offered when the key holds the scope it reads with. */
export const PAGES = [
  { name: 'catalog', title: 'Catalog', scope: 'catalog:read' },
  { name: 'configs', title: 'Configs', scope: 'configs:read' },
  { name: 'playground', title: 'Playground', scope: 'generate' },
  { name: 'jobs', title: 'Jobs', scope: 'jobs:read' },
  { name: 'usage', title: 'Usage', scope: 'usage:read' },
  { name: 'billing', title: 'Billing', scope: 'billing:read' },
  { name: 'keys', title: 'Keys', scope: 'keys:read' },
  { name: 'audit', title: 'Audit', scope: 'audit:read' },
] as const;

export type PageName = (typeof PAGES)[number]['name'];

export interface Route {
  page: PageName | null;
  /** The segments after the page's: `#/jobs/job_1` → ['job_1']. */
  path: string[];
}

/** The route of a location hash; the address holds pages and ids, never a key. */
export function parseRoute(hash: string): Route {
  const [name = '', ...path] = hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  const page = PAGES.find((candidate) => candidate.name === name)?.name ?? null;
  return { page, path: page ? path.filter(Boolean) : [] };
}

export const href = (page: PageName, ...path: string[]): string =>
  `#/${[page, ...path].map(encodeURIComponent).join('/')}`;
