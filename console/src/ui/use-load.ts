import { useCallback, useEffect, useState } from 'preact/hooks';
import { useSession } from '../session/session.js';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload(): void;
}

/** Data a page shows: loaded when `deps` change, its error reported to the session and kept to show. */
export function useLoad<T>(load: () => PromiseLike<T>, deps: unknown[]): Loaded<T> {
  const { report } = useSession();
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    Promise.resolve(load()).then(
      (data) => current && setState({ data, loading: false }),
      (error: unknown) => {
        if (!current) return;
        report(error);
        setState({ error, loading: false });
      },
    );
    return () => {
      current = false;
    };
    // The caller names what the load depends on, as with useEffect.
  }, [...deps, round]);
  const reload = useCallback(() => setRound((value) => value + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

/** An action a button starts: its pending state and its error, reported to the session. */
export function useAction<A extends unknown[], T>(action: (...args: A) => Promise<T>) {
  const { report } = useSession();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const run = async (...args: A): Promise<T | undefined> => {
    setPending(true);
    setError(undefined);
    try {
      return await action(...args);
    } catch (caught) {
      report(caught);
      setError(caught);
      return undefined;
    } finally {
      setPending(false);
    }
  };
  return { run, pending, error, clear: () => setError(undefined) };
}
