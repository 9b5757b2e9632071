import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { toYaml } from '../configs/to-yaml.js';
import type { Mark } from '../editor/yaml-editor.js';
import { can, useSession } from '../session/session.js';
import { describedBy, Field } from '../ui/field.js';
import { describeFieldError, fieldError, ProblemView } from '../ui/problem-view.js';
import { useAction, useLoad } from '../ui/use-load.js';
import { YamlBox } from '../ui/yaml-box.js';
import { credits } from '../ui/credits.js';
import { FinsynthError, type operations, type ProblemFieldError } from '@finsynth/client';
import { ComposePanel } from './compose-panel.js';

type CheckAnswer = operations['validateConfig']['responses'][200]['content']['application/json'];

export const EXAMPLE_CONFIG = `version: 1
sector: cards
seed: 42
tables:
  - name: transactions
    rows: 1000
output: { format: csv, compression: gzip }
`;

/** How long typing pauses before the text is checked with the service. */
const CHECK_DELAY_MS = 300;

/** The positioned problems of a check: its answer's errors, or those of an invalid-yaml problem. */
const marksOf = (errors: ProblemFieldError[]): Mark[] =>
  errors
    .filter((error) => error.line !== undefined)
    .map((error) => ({ line: error.line!, column: error.column ?? 1, message: error.message }));

/** A YAML editor checked as you type, with its estimate; saved configs and overlays; composition. */
export function ConfigsPage() {
  const { session, report } = useSession();
  const [text, setText] = useState(EXAMPLE_CONFIG);
  const [check, setCheck] = useState<{ answer?: CheckAnswer; error?: unknown }>({});
  const [opened, setOpened] = useState<{ id: string; name: string } | null>(null);
  const [name, setName] = useState('');
  const [saved, setSaved] = useState<string | undefined>(undefined);
  const latest = useRef(0);
  const configs = useLoad(() => session.client.configs.list({ limit: 100 }), []);

  useEffect(() => {
    const round = ++latest.current;
    if (text.trim() === '') {
      setCheck({});
      return;
    }
    const timer = setTimeout(() => {
      session.client.configs.validate(text).then(
        (answer) => round === latest.current && setCheck({ answer }),
        (error: unknown) => {
          if (round !== latest.current) return;
          report(error);
          setCheck({ error });
        },
      );
    }, CHECK_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);

  const errors = check.answer?.errors ?? (check.error instanceof FinsynthError ? check.error.errors : []);
  const marks = useMemo(() => marksOf(errors), [check]);

  const save = useAction(async () => {
    const body = { name: name.trim(), config_yaml: text };
    const saved = opened
      ? await session.client.configs.update(opened.id, body)
      : await session.client.configs.create(body);
    setOpened({ id: saved.id, name: saved.name });
    setSaved(`Saved as ${saved.name} (${saved.id}), version ${saved.version}.`);
    configs.reload();
    return saved;
  });
  const remove = useAction(async (id: string) => {
    await session.client.configs.delete(id);
    if (opened?.id === id) setOpened(null);
    configs.reload();
  });

  return (
    <>
      <h1 tabIndex={-1}>Configs</h1>
      <section aria-labelledby="editor-heading">
        <h2 id="editor-heading">{opened ? `Editing ${opened.name}` : 'New config'}</h2>
        <YamlBox label="Config YAML" text={text} marks={marks} onChange={setText} />
        <CheckStatus answer={check.answer} error={check.error} errors={errors} />
        {can(session, 'configs:write') && (
          <form
            class="inline-form"
            onSubmit={(event) => {
              event.preventDefault();
              save.run();
            }}
          >
            <Field id="config-name" label="Name" error={fieldError(save.error, '/name')}>
              <input
                {...describedBy('config-name', fieldError(save.error, '/name'))}
                value={name}
                onInput={(event) => setName(event.currentTarget.value)}
              />
            </Field>
            <button type="submit" disabled={save.pending}>
              {opened ? 'Save changes' : 'Save config'}
            </button>
            {opened && (
              <button
                type="button"
                class="secondary"
                onClick={() => {
                  setOpened(null);
                  setSaved(undefined);
                  setName('');
                  setText(EXAMPLE_CONFIG);
                }}
              >
                New config
              </button>
            )}
          </form>
        )}
        {save.error !== undefined && <ProblemView error={save.error} label="Save problem" />}
        {saved && save.error === undefined && (
          <p class="muted" role="status">
            {saved}
          </p>
        )}
      </section>

      <section aria-labelledby="saved-heading">
        <h2 id="saved-heading">Saved configs</h2>
        {configs.error !== undefined && <ProblemView error={configs.error} />}
        {remove.error !== undefined && <ProblemView error={remove.error} />}
        {configs.data && configs.data.data.length === 0 && <p class="muted">No saved config yet.</p>}
        <ul class="cards">
          {configs.data?.data.map((config) => (
            <li key={config.id}>
              <span>
                <strong>{config.name}</strong> <code>{config.id}</code> · version {config.version} ·{' '}
                {config.config.sector}
              </span>
              <span class="actions">
                <button
                  type="button"
                  class="secondary"
                  onClick={() => {
                    setOpened({ id: config.id, name: config.name });
                    setSaved(undefined);
                    setName(config.name);
                    setText(toYaml(config.config));
                  }}
                >
                  Open<span class="visually-hidden"> {config.name}</span>
                </button>
                {can(session, 'configs:write') && (
                  <button type="button" class="danger" onClick={() => remove.run(config.id)}>
                    Delete<span class="visually-hidden"> {config.name}</span>
                  </button>
                )}
              </span>
            </li>
          ))}
        </ul>
      </section>

      <ComposePanel configs={configs.data?.data ?? []} />
    </>
  );
}

function CheckStatus(props: { answer?: CheckAnswer; error?: unknown; errors: ProblemFieldError[] }) {
  if (props.answer?.valid && props.answer.estimate) {
    const estimate = props.answer.estimate;
    return (
      <div class="check check-valid" role="status" aria-label="Check">
        <p>
          Valid. Estimate: <strong>{credits(estimate.credits)}</strong> for {estimate.rows.toLocaleString('en')} rows
          {estimate.mode === 'test' ? ' (a test key is not charged)' : ''}.
        </p>
        <ul>
          {estimate.tables.map((table) => (
            <li key={table.name}>
              {table.name}: {table.rows.toLocaleString('en')} rows, {credits(table.credits)}
            </li>
          ))}
        </ul>
      </div>
    );
  }
  if (props.errors.length > 0)
    return (
      <div class="check check-invalid" role="status" aria-label="Check">
        <p>
          {props.errors.length} problem{props.errors.length === 1 ? '' : 's'}
          {props.error instanceof FinsynthError ? ` (${props.error.title}: ${props.error.detail})` : ''}:
        </p>
        <ul>
          {props.errors.map((error, index) => (
            <li key={index}>{describeFieldError(error)}</li>
          ))}
        </ul>
      </div>
    );
  if (props.error !== undefined) return <ProblemView error={props.error} />;
  return (
    <p class="check muted" role="status" aria-label="Check">
      Checked as you type.
    </p>
  );
}
