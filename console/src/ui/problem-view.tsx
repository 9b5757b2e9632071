import { FinsynthError, type ProblemFieldError } from '@finsynth/client';

/** A problem answer as its title and detail, with its field errors listed; anything else as its message. */
export function ProblemView({ error, label }: { error: unknown; label?: string }) {
  if (error instanceof FinsynthError) {
    return (
      <div class="problem" role="alert" aria-label={label}>
        <p>
          <strong class="problem-title">{error.title}</strong> <span class="problem-detail">{error.detail}</span>
        </p>
        {error.errors.length > 0 && (
          <ul class="problem-errors">
            {error.errors.map((field, index) => (
              <li key={index}>{describeFieldError(field)}</li>
            ))}
          </ul>
        )}
        <p class="problem-meta">
          {error.status} {error.slug}
          {error.requestId ? ` · request ${error.requestId}` : ''}
        </p>
      </div>
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div class="problem" role="alert" aria-label={label}>
      <p>
        <strong class="problem-title">The request failed</strong> <span class="problem-detail">{message}</span>
      </p>
    </div>
  );
}

/** `line 5, column 11: must be >= 1 (/tables/0/rows)`. */
export function describeFieldError(field: ProblemFieldError): string {
  const where = field.line !== undefined ? `line ${field.line}, column ${field.column ?? 1}: ` : '';
  return `${where}${field.message}${field.pointer ? ` (${field.pointer})` : ''}`;
}

/** The message of the field error whose body pointer is `pointer`, to show beside that field. */
export function fieldError(error: unknown, pointer: string): string | undefined {
  if (!(error instanceof FinsynthError)) return undefined;
  return error.errors.find((field) => field.pointer === pointer || field.pointer.startsWith(`${pointer}/`))?.message;
}
