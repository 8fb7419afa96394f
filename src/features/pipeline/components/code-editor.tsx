import { javascript } from '@codemirror/lang-javascript';
import { json } from '@codemirror/lang-json';
import { StateEffect, StateField } from '@codemirror/state';
import { Decoration, type DecorationSet } from '@codemirror/view';
import { EditorView, basicSetup } from 'codemirror';
import { useEffect, useRef } from 'react';

export interface CodeEditorProps {
  /** File name: `.json` gets the JSON mode, anything else TypeScript. */
  fileName: string;
  value: string;
  onChange: (value: string) => void;
  /** The line a compile error points at (1-based): marked and scrolled to. */
  errorLine: number | null;
  label: string;
  /** The id of the text that describes the contents (a compile error), while there is one. */
  describedBy?: string | undefined;
  /** Gets what focuses the editor once it exists (react-hook-form's field ref, to focus a refused file). */
  editorRef?: (editor: { focus: () => void } | null) => void;
}

const setErrorLine = StateEffect.define<number | null>();
const errorMark = Decoration.line({ class: 'cm-error-line', attributes: { 'data-error-line': 'true' } });
/** The compile error's line, highlighted until the next save. */
const errorLineField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(marks, tr) {
    let next = marks.map(tr.changes);
    for (const effect of tr.effects) {
      if (!effect.is(setErrorLine)) continue;
      const n = effect.value;
      next =
        n === null || n > tr.state.doc.lines
          ? Decoration.none
          : Decoration.set([errorMark.range(tr.state.doc.line(n).from)]);
    }
    return next;
  },
  provide: (field) => EditorView.decorations.from(field),
});
const errorLineTheme = EditorView.baseTheme({ '.cm-error-line': { backgroundColor: 'rgba(220, 38, 38, 0.2)' } });

/** CodeMirror 6 in TypeScript or JSON mode (loaded only with the source editor's chunk). */
export default function CodeEditor({
  fileName,
  value,
  onChange,
  errorLine,
  label,
  describedBy,
  editorRef,
}: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef(onChange);
  // Read by the content's attributes on every update, so the error's description follows the field.
  const description = useRef(describedBy);
  useEffect(() => {
    latest.current = onChange;
    description.current = describedBy;
  }, [onChange, describedBy]);

  useEffect(() => {
    const language = fileName.endsWith('.json')
      ? json()
      : javascript({ typescript: true, jsx: fileName.endsWith('x') });
    const editor = new EditorView({
      parent: host.current!,
      doc: value,
      extensions: [
        basicSetup,
        language,
        errorLineField,
        errorLineTheme,
        EditorView.contentAttributes.of(() => ({
          'aria-label': label,
          ...(description.current ? { 'aria-describedby': description.current, 'aria-invalid': 'true' } : {}),
        })),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) latest.current(update.state.doc.toString());
        }),
      ],
    });
    view.current = editor;
    editorRef?.({ focus: () => editor.focus() });
    return () => {
      editorRef?.(null);
      editor.destroy();
    };
    // One editor per file; later values come from typing in it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fileName]);

  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    const effects = [setErrorLine.of(errorLine)];
    if (errorLine !== null && errorLine <= editor.state.doc.lines) {
      const from = editor.state.doc.line(errorLine).from;
      editor.dispatch({ effects, selection: { anchor: from }, scrollIntoView: true });
    } else {
      editor.dispatch({ effects });
    }
    // describedBy: the dispatch also refreshes the content's aria attributes.
  }, [errorLine, fileName, describedBy]);

  return <div ref={host} className="overflow-hidden rounded-md border border-gray-300 text-sm dark:border-gray-600" />;
}
