import type { ComponentType } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { AuditPage } from './pages/audit.js';
import { BillingPage } from './pages/billing.js';
import { CatalogPage } from './pages/catalog.js';
import { ConfigsPage } from './pages/configs.js';
import { JobsPage } from './pages/jobs.js';
import { KeysPage } from './pages/keys.js';
import { PlaygroundPage } from './pages/playground.js';
import { UsagePage } from './pages/usage.js';
import { href, PAGES, type PageName, type Route } from './routes.js';
import { can, useSession } from './session/session.js';

const PAGE_VIEWS: Record<PageName, ComponentType<{ path: string[] }>> = {
  catalog: CatalogPage,
  configs: ConfigsPage,
  playground: PlaygroundPage,
  jobs: JobsPage,
  usage: UsagePage,
  billing: BillingPage,
  keys: KeysPage,
  audit: AuditPage,
};

/** The signed-in console: the mode banner, the pages the key may read, and the page of the address. */
export function Shell({ route }: { route: Route }) {
  const { session, signOut } = useSession();
  const offered = PAGES.filter((page) => can(session, page.scope));
  const page = route.page ?? offered[0]?.name ?? 'catalog';
  const View = PAGE_VIEWS[page];
  const main = useRef<HTMLElement>(null);

  // A new page moves the focus to its content, as a page load would, for keyboard and screen reader users.
  useEffect(() => {
    main.current?.querySelector<HTMLElement>('h1')?.focus();
    document.title = `${PAGES.find((candidate) => candidate.name === page)?.title} · finsynth console`;
  }, [page]);

  return (
    <>
      <a class="skip" href="#main" onClick={(event) => (event.preventDefault(), main.current?.focus())}>
        Skip to content
      </a>
      {session.mode === 'test' && (
        <div class="test-banner" role="note" aria-label="Test mode">
          <strong>Test mode</strong> This is the sandbox: test data only, nothing is charged.
        </div>
      )}
      <header class="top">
        <span class="brand">finsynth console</span>
        <span class="who">
          {session.key ? `${session.key.name ?? 'key'} · ${session.key.prefix}…` : 'key'} · {session.mode}
        </span>
        <button type="button" class="link" onClick={() => signOut('Signed out.')}>
          Sign out
        </button>
      </header>
      <nav class="pages" aria-label="Pages">
        <ul>
          {offered.map((candidate) => (
            <li key={candidate.name}>
              <a href={href(candidate.name)} aria-current={candidate.name === page ? 'page' : undefined}>
                {candidate.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" ref={main} tabIndex={-1}>
        <View path={route.path} />
      </main>
    </>
  );
}
