import type { Finsynth } from '@finsynth/client';
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { consoleClient } from '../client/console-client.js';
import { problemError } from '../client/problem-error.js';

/** The key signed in, as GET /v1/keys/current describes it. */
export interface CurrentKey {
  id: string;
  name: string | null;
  mode: 'live' | 'test';
  scopes: string[];
  prefix: string;
}

export interface Session {
  client: Finsynth;
  mode: 'live' | 'test';
  /** null when the key may not read itself (it lacks keys:read): every page is then offered, and a 403 says no. */
  key: CurrentKey | null;
  /** Scopes a 403 `missing-scope` has shown the key lacks. */
  lacking: ReadonlySet<string>;
}

/** Whether the console offers what needs `scope`. */
export const can = (session: Session, scope: string): boolean =>
  !session.lacking.has(scope) && (session.key === null || session.key.scopes.includes(scope));

/**
 * Opens a session for a key: asks the service who the key is. A key the service does not know (401) is
 * refused by throwing; one that may not read itself (403) opens a session whose scopes are unknown.
 */
export async function openSession(apiKey: string): Promise<Session> {
  const client = consoleClient(apiKey);
  const { data, error, response } = await client.raw.GET('/v1/keys/current');
  if (response.status === 403) return { client, mode: client.mode, key: null, lacking: new Set(['keys:read']) };
  if (!data) throw problemError(response, error);
  return { client, mode: data.mode, key: data, lacking: new Set() };
}

export interface SessionControls {
  session: Session;
  /** What every page calls with an error it caught: a revoked key signs out, a missing scope is remembered. */
  report(error: unknown): void;
  signOut(message?: string): void;
}

export const SessionContext = createContext<SessionControls | null>(null);

export function useSession(): SessionControls {
  const controls = useContext(SessionContext);
  if (!controls) throw new Error('useSession() is used inside the signed-in shell');
  return controls;
}
