import { FinsynthError, type Problem } from '@finsynth/client';

/** The error a raw call's problem answer is, as the client's own calls throw it. */
export const problemError = (response: Response, body: unknown): FinsynthError =>
  new FinsynthError(
    typeof body === 'object' && body !== null && 'type' in body
      ? (body as Problem)
      : {
          type: 'about:blank',
          title: response.statusText || `HTTP ${response.status}`,
          status: response.status,
          detail: '',
          instance: new URL(response.url).pathname,
        },
    response.headers,
  );
