import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { yaml } from '@codemirror/lang-yaml';
import { defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { EditorState, type Text } from '@codemirror/state';
import { EditorView, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view';

/** A problem of the text at a 1-based line and column, as the service reports them. */
export interface Mark {
  line: number;
  column: number;
  message: string;
}

export interface YamlEditor {
  text(): string;
  setText(text: string): void;
  mark(marks: Mark[]): void;
  destroy(): void;
}

/** The range a mark underlines: from its column to the end of the word there (at least one character). */
function rangeOf(doc: Text, mark: Mark): { from: number; to: number } {
  const line = doc.line(Math.min(Math.max(mark.line, 1), doc.lines));
  const from = Math.min(line.from + Math.max(mark.column, 1) - 1, line.to);
  const rest = doc.sliceString(from, line.to);
  const word = /^\S+/.exec(rest)?.[0].length ?? 0;
  return { from, to: Math.max(from + word, Math.min(from + 1, line.to)) };
}

/**
 * A CodeMirror 6 YAML editor in a shadow root of `host`: there CodeMirror's styles go into a constructed
 * stylesheet, which the page's Content-Security-Policy (style-src 'self') allows, where a <style> element
 * would need 'unsafe-inline'. Tab is left to move the focus, so that keyboard users can leave the editor.
 */
export function createYamlEditor(
  host: HTMLElement,
  options: { text: string; label: string; onChange(text: string): void },
): YamlEditor {
  const root = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  const view = new EditorView({
    root,
    parent: root,
    state: EditorState.create({
      doc: options.text,
      extensions: [
        lineNumbers(),
        history(),
        highlightActiveLine(),
        lintGutter(),
        yaml(),
        syntaxHighlighting(defaultHighlightStyle),
        keymap.of([...defaultKeymap, ...historyKeymap]),
        EditorView.contentAttributes.of({ 'aria-label': options.label }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) options.onChange(update.state.doc.toString());
        }),
        EditorView.theme({
          '&': { border: '1px solid #8a8f98', borderRadius: '4px', fontSize: '14px', background: '#fff' },
          '&.cm-focused': { outline: '3px solid #1d5fd6' },
          '.cm-scroller': { fontFamily: 'ui-monospace, Menlo, Consolas, monospace', minHeight: '16em' },
        }),
      ],
    }),
  });
  return {
    text: () => view.state.doc.toString(),
    setText(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    mark(marks) {
      const diagnostics: Diagnostic[] = marks.map((mark) => ({
        ...rangeOf(view.state.doc, mark),
        severity: 'error',
        message: `line ${mark.line}, column ${mark.column}: ${mark.message}`,
      }));
      view.dispatch(setDiagnostics(view.state, diagnostics));
    },
    destroy: () => view.destroy(),
  };
}
