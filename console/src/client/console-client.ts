import { Finsynth } from '@finsynth/client';

/** The typed client, as the console uses it: this origin, the key the user gave, one retry. */
export function consoleClient(apiKey: string): Finsynth {
  return new Finsynth({ apiKey, baseUrl: location.origin, maxRetries: 1, timeoutMs: 30_000 });
}
