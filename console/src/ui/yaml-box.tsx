import { useEffect, useRef, useState } from 'preact/hooks';
import type { Mark, YamlEditor } from '../editor/yaml-editor.js';

/**
 * The YAML editor, loaded when a page first shows it (its chunk is most of the console's weight). `text` sets
 * the content when it changes from outside (a saved config opened); typing reports through `onChange`.
 */
export function YamlBox(props: { label: string; text: string; marks: Mark[]; onChange(text: string): void }) {
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<YamlEditor | null>(null);
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;
  const [failed, setFailed] = useState<string | undefined>(undefined);

  useEffect(() => {
    let live = true;
    import('../editor/yaml-editor.js').then(
      ({ createYamlEditor }) => {
        if (!live || !host.current) return;
        editor.current = createYamlEditor(host.current, {
          text: props.text,
          label: props.label,
          onChange: (text) => onChange.current(text),
        });
        editor.current.mark(props.marks);
      },
      (error: unknown) => setFailed(String(error)),
    );
    return () => {
      live = false;
      editor.current?.destroy();
      editor.current = null;
    };
  }, []);

  useEffect(() => {
    if (editor.current && editor.current.text() !== props.text) editor.current.setText(props.text);
  }, [props.text]);

  useEffect(() => editor.current?.mark(props.marks), [props.marks]);

  return (
    <div class="yaml-box">
      <div ref={host} class="yaml-host" data-label={props.label} />
      {failed && <p class="problem">The editor could not load: {failed}</p>}
    </div>
  );
}
