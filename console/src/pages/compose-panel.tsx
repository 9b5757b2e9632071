import type { operations } from '@finsynth/client';
import { useState } from 'preact/hooks';
import { toYaml } from '../configs/to-yaml.js';
import { can, useSession } from '../session/session.js';
import { cellText } from '../ui/data-table.js';
import { describedBy, Field } from '../ui/field.js';
import { fieldError, ProblemView } from '../ui/problem-view.js';
import { useAction, useLoad } from '../ui/use-load.js';

type SavedConfig = operations['listConfigs']['responses'][200]['content']['application/json']['data'][number];
type Composed = operations['composeConfig']['responses'][200]['content']['application/json'];

/** The value at a JSON pointer (RFC 6901) of a document. */
function at(document: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((value, token) => (value as Record<string, unknown> | undefined)?.[token], document);
}

/** Saved overlays, and a config composed from a saved base and overlays, each field named by its layer. */
export function ComposePanel({ configs }: { configs: SavedConfig[] }) {
  const { session } = useSession();
  const overlays = useLoad(() => session.client.overlays.list({ limit: 100 }), []);
  const [overlayName, setOverlayName] = useState('');
  const [overlayYaml, setOverlayYaml] = useState('seed: 7\n');
  const [base, setBase] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [composed, setComposed] = useState<Composed | undefined>(undefined);

  const saveOverlay = useAction(async () => {
    await session.client.overlays.create({ name: overlayName.trim(), overlay_yaml: overlayYaml });
    setOverlayName('');
    overlays.reload();
  });
  const deleteOverlay = useAction(async (id: string) => {
    await session.client.overlays.delete(id);
    setChosen((ids) => ids.filter((each) => each !== id));
    overlays.reload();
  });
  const compose = useAction(async () => {
    setComposed(await session.client.configs.compose({ base: base || configs[0]!.id, overlays: chosen }));
  });

  const names = new Map(overlays.data?.data.map((overlay) => [overlay.id, overlay.name]));
  /** A layer as the service names it (a saved id, or `base` and `overlays[i]` for inline ones), with its name. */
  const layerName = (layer: string): string => {
    const overlay = names.get(layer);
    if (overlay) return `overlay ${overlay} (${layer})`;
    const config = configs.find((each) => each.id === layer);
    return config ? `config ${config.name} (${layer})` : layer;
  };

  return (
    <section aria-labelledby="compose-heading">
      <h2 id="compose-heading">Overlays and composition</h2>
      {overlays.error !== undefined && <ProblemView error={overlays.error} />}
      {can(session, 'configs:write') && (
        <form
          class="stacked-form"
          onSubmit={(event) => {
            event.preventDefault();
            saveOverlay.run();
          }}
        >
          <Field id="overlay-name" label="Overlay name" error={fieldError(saveOverlay.error, '/name')}>
            <input
              {...describedBy('overlay-name', fieldError(saveOverlay.error, '/name'))}
              value={overlayName}
              onInput={(event) => setOverlayName(event.currentTarget.value)}
            />
          </Field>
          <Field id="overlay-yaml" label="Overlay YAML (a partial config)" error={fieldError(saveOverlay.error, '')}>
            <textarea
              {...describedBy('overlay-yaml', fieldError(saveOverlay.error, ''))}
              rows={4}
              spellcheck={false}
              value={overlayYaml}
              onInput={(event) => setOverlayYaml(event.currentTarget.value)}
            />
          </Field>
          <button type="submit" disabled={saveOverlay.pending}>
            Save overlay
          </button>
          {saveOverlay.error !== undefined && <ProblemView error={saveOverlay.error} label="Overlay problem" />}
        </form>
      )}
      {configs.length === 0 ? (
        <p class="muted">Save a config to compose it with overlays.</p>
      ) : (
        <form
          class="stacked-form"
          onSubmit={(event) => {
            event.preventDefault();
            compose.run();
          }}
        >
          <Field id="compose-base" label="Base config">
            <select
              id="compose-base"
              value={base || configs[0]!.id}
              onChange={(event) => setBase(event.currentTarget.value)}
            >
              {configs.map((config) => (
                <option key={config.id} value={config.id}>
                  {config.name}
                </option>
              ))}
            </select>
          </Field>
          <fieldset>
            <legend>Overlays, applied in the order chosen</legend>
            {overlays.data?.data.length === 0 && <p class="muted">No saved overlay yet.</p>}
            {overlays.data?.data.map((overlay) => (
              <div key={overlay.id} class="check-row">
                <input
                  type="checkbox"
                  id={`overlay-${overlay.id}`}
                  checked={chosen.includes(overlay.id)}
                  onChange={(event) =>
                    setChosen((ids) =>
                      event.currentTarget.checked ? [...ids, overlay.id] : ids.filter((id) => id !== overlay.id),
                    )
                  }
                />
                <label for={`overlay-${overlay.id}`}>
                  {chosen.includes(overlay.id) ? `${chosen.indexOf(overlay.id) + 1}. ` : ''}
                  {overlay.name} <code>{toYaml(overlay.overlay).trim()}</code>
                </label>
                {can(session, 'configs:write') && (
                  <button type="button" class="danger small" onClick={() => deleteOverlay.run(overlay.id)}>
                    Delete<span class="visually-hidden"> overlay {overlay.name}</span>
                  </button>
                )}
              </div>
            ))}
          </fieldset>
          <button type="submit" disabled={compose.pending}>
            Compose
          </button>
        </form>
      )}
      {deleteOverlay.error !== undefined && <ProblemView error={deleteOverlay.error} />}
      {compose.error !== undefined && <ProblemView error={compose.error} label="Compose problem" />}
      {composed && (
        <div class="composed">
          <p role="status">
            {composed.valid ? 'The composed config is valid' : 'The composed config is not valid'}
            {composed.estimate ? `: ${composed.estimate.credits} credits` : ''}.
          </p>
          <div class="table-scroll" tabIndex={0} role="region" aria-label="Where each field came from">
            <table class="data">
              <caption>Where each field came from</caption>
              <thead>
                <tr>
                  <th scope="col">field</th>
                  <th scope="col">value</th>
                  <th scope="col">layer</th>
                </tr>
              </thead>
              <tbody>
                {Object.entries(composed.sources).map(([pointer, layer]) => (
                  <tr key={pointer}>
                    <th scope="row">
                      <code>{pointer}</code>
                    </th>
                    <td>{cellText(at(composed.composed, pointer))}</td>
                    <td>{layerName(layer)}</td>
                  </tr>
                ))}
                {composed.removed.map((removed) => (
                  <tr key={`removed ${removed.pointer} ${removed.name ?? ''}`}>
                    <th scope="row">
                      <code>{removed.pointer}</code>
                    </th>
                    <td>removed{removed.name ? ` (${removed.name})` : ''}</td>
                    <td>{layerName(removed.layer)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <pre aria-label="Composed config">{toYaml(composed.composed)}</pre>
        </div>
      )}
    </section>
  );
}
