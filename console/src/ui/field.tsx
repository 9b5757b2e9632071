import type { ComponentChildren } from 'preact';

/** A labelled control with its error beside it, tied to it for screen readers. */
export function Field(props: {
  id: string;
  label: string;
  error?: string;
  hint?: string;
  children: ComponentChildren;
}) {
  return (
    <div class={props.error ? 'field field-invalid' : 'field'}>
      <label for={props.id}>{props.label}</label>
      {props.children}
      {props.hint && (
        <small id={`${props.id}-hint`} class="hint">
          {props.hint}
        </small>
      )}
      {props.error && (
        <small id={`${props.id}-error`} class="field-error" role="alert">
          {props.error}
        </small>
      )}
    </div>
  );
}

/** The aria attributes of a control inside a Field. */
export const describedBy = (id: string, error?: string, hint?: string) => ({
  id,
  'aria-invalid': error ? ('true' as const) : undefined,
  'aria-describedby': [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined,
});
