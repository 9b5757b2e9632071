import { FinsynthError } from '@finsynth/client';
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { PAGES, parseRoute, type Route } from './routes.js';
import { forgetKey, storedKey } from './session/key-store.js';
import { can, openSession, SessionContext, type Session, type SessionControls } from './session/session.js';
import { Shell } from './shell.js';
import { SignIn } from './sign-in.js';

const currentRoute = (): Route => parseRoute(location.hash);

/** Signs in with the key of this tab's session, if any, and shows the signed-in shell or the sign-in form. */
export function App() {
  const [session, setSession] = useState<Session | null>(null);
  const [restoring, setRestoring] = useState(() => storedKey() !== null);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [route, setRoute] = useState(currentRoute);

  useEffect(() => {
    const follow = () => setRoute(currentRoute());
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);

  useEffect(() => {
    const key = storedKey();
    if (!key) return;
    openSession(key).then(
      (opened) => {
        setSession(opened);
        setRestoring(false);
      },
      (error: unknown) => {
        forgetKey();
        setNotice(error instanceof FinsynthError ? `${error.title}: ${error.detail}` : String(error));
        setRestoring(false);
      },
    );
  }, []);

  const signOut = useCallback((message?: string) => {
    forgetKey();
    setSession(null);
    setNotice(message);
  }, []);

  const report = useCallback(
    (error: unknown) => {
      if (!(error instanceof FinsynthError)) return;
      if (error.status === 401) signOut(`Signed out: ${error.detail}`);
      const scope = error.problem.required_scope;
      if (error.status === 403 && typeof scope === 'string')
        setSession((current) => current && { ...current, lacking: new Set([...current.lacking, scope]) });
    },
    [signOut],
  );

  const controls = useMemo<SessionControls | null>(
    () => (session ? { session, report, signOut } : null),
    [session, report, signOut],
  );

  if (restoring) return <p class="loading">Signing in…</p>;
  if (!controls)
    return (
      <SignIn
        notice={notice}
        onSignedIn={(opened) => {
          setNotice(undefined);
          setSession(opened);
          if (!route.page) location.hash = `#/${PAGES.find((page) => can(opened, page.scope))?.name ?? 'catalog'}`;
        }}
      />
    );
  return (
    <SessionContext.Provider value={controls}>
      <Shell route={route} />
    </SessionContext.Provider>
  );
}
