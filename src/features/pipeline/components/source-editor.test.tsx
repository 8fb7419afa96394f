import { screen, waitFor, within } from '@testing-library/react';
import { EditorView } from 'codemirror';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLUGIN_SOURCE_MAX, type Plugin } from '@/contract/plugins';
import { compilePluginSourcesInTheseTests, HEDGEBOX, renderApp, setupTestApi } from '@testing';

const api = setupTestApi();
const org = () => api().organizationId(HEDGEBOX);
const base = () => `/api/organizations/${org()}/pipeline_destinations`;
const sourceOf = (id: number) => api().call<Record<string, string>>('GET', `${base()}/${id}/source/`);

/** Opens the source page of a new source plugin; `edit(text)` replaces the open file's contents as typing would. */
async function openSource() {
  const plugin = await api().call<Plugin>('POST', `${base()}/`, { plugin_type: 'source', name: 'Order forwarder' });
  const rendered = renderApp(`/organizations/${org()}/pipeline/destinations/${plugin.id}/source`, {
    apiKey: api().demoKey,
  });
  const editor = await screen.findByRole('textbox', { name: 'Contents of index.ts' });
  // CodeMirror reads its own input events, which jsdom does not produce: the change goes through its view.
  const edit = (text: string) => {
    const view = EditorView.findFromDOM(screen.getByRole('textbox', { name: /^Contents of / }))!;
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
  };
  return { ...rendered, id: plugin.id, editor, edit, save: screen.getByRole('button', { name: 'Save' }) };
}

describe('the source editor', () => {
  compilePluginSourcesInTheseTests();
  // CodeMirror measures text through ranges, which jsdom cannot lay out: nothing to measure here.
  const { getClientRects, getBoundingClientRect } = Range.prototype;
  beforeAll(() => {
    Range.prototype.getClientRects = () =>
      ({ length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] }) as unknown as DOMRectList;
    Range.prototype.getBoundingClientRect = () => new DOMRect();
  });
  afterAll(() => {
    Object.assign(Range.prototype, { getClientRects, getBoundingClientRect });
  });

  it('a file past the size limit gets the message on it and nothing is sent', async () => {
    const { user, id, editor, edit, save } = await openSource();
    const before = await sourceOf(id);
    expect(save).toBeDisabled();
    edit(`// ${'x'.repeat(PLUGIN_SOURCE_MAX)}\n`);
    await user.click(save);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      `Ensure this file has no more than ${PLUGIN_SOURCE_MAX} characters.`,
    );
    expect(editor).toHaveAttribute('aria-invalid', 'true');
    expect(editor).toHaveAccessibleDescription(/no more than/);
    expect(await sourceOf(id)).toEqual(before);
  });

  it('a compile error lands on its file and line, focused; the fix saves', async () => {
    const { user, id, edit, save } = await openSource();
    const before = await sourceOf(id);
    edit('export function onEvent(event) {\n  const broken = ;\n}\n');
    await user.click(save);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(/^index\.ts, line 2: /);
    const editor = screen.getByRole('textbox', { name: 'Contents of index.ts' });
    await waitFor(() => expect(editor).toHaveAttribute('aria-invalid', 'true'));
    expect(editor).toHaveAccessibleDescription(/index\.ts, line 2: /);
    expect(editor).toHaveFocus();
    expect(editor.querySelector('[data-error-line]')).toHaveTextContent('const broken = ;');
    expect(await sourceOf(id)).toEqual(before);
    // The unsaved file is marked in its tab.
    expect(
      within(screen.getByRole('tablist', { name: 'Files' })).getByRole('tab', { name: 'index.ts •' }),
    ).toBeInTheDocument();

    const fixed = 'export function onEvent(event) {\n  console.log(event.event)\n}\n';
    edit(fixed);
    await user.click(save);
    expect(await screen.findByText('Saved and compiled')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect((await sourceOf(id))['index.ts']).toBe(fixed);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled());
  });
});
