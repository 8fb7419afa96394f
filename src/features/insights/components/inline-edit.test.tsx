import { screen, waitFor } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { INSIGHT_NAME_MAX, insightEndpoints } from '@/contract/insights';
import { override, renderApp, setupTestApi } from '@testing';

const api = setupTestApi();
const PROJECT = 1;
const revenue = () =>
  api()
    .store.db.prepare('SELECT id, name, description FROM insights WHERE project_id = ? AND name = ?')
    .get(PROJECT, 'Revenue') as { id: number; name: string; description: string | null } | undefined;

async function editName() {
  const { id } = revenue()!;
  const rendered = renderApp(`/projects/${PROJECT}/insights/${id}`, { apiKey: api().demoKey });
  await rendered.user.click(await screen.findByRole('button', { name: 'Edit name' }));
  const input = screen.getByRole('textbox', { name: 'Name' });
  expect(input).toHaveFocus();
  return { ...rendered, id, input };
}

describe('editing an insight’s name and description in place', () => {
  it('a name past the limit gets the message on the input, keeps focus there, and nothing is sent', async () => {
    const { user, input } = await editName();
    await user.clear(input);
    await user.click(input);
    await user.paste('n'.repeat(INSIGHT_NAME_MAX + 1));
    await user.keyboard('{Enter}');
    await waitFor(() =>
      expect(input).toHaveAccessibleDescription(`Ensure this field has no more than ${INSIGHT_NAME_MAX} characters.`),
    );
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveFocus();
    expect(revenue()).toBeDefined();
  });

  it('a refusal naming the field lands under its input; Cancel closes it unchanged and focus returns to Edit', async () => {
    // A production instance may refuse a name the reference server takes.
    override(insightEndpoints.update, () =>
      HttpResponse.json(
        { type: 'validation_error', code: 'invalid_input', detail: 'This name is reserved.', attr: 'name' },
        { status: 400 },
      ),
    );
    const { user, input } = await editName();
    await user.clear(input);
    await user.type(input, 'Dashboard{Enter}');
    await waitFor(() => expect(input).toHaveAccessibleDescription('This name is reserved.'));
    expect(input).toHaveFocus();
    expect(revenue()).toBeDefined();

    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('textbox', { name: 'Name' })).toBeNull();
    expect(screen.getByRole('heading', { level: 1, name: /Revenue/ })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Edit name' })).toHaveFocus());
  });

  it('the description saves with Ctrl+Enter (Enter is a new line), trimmed', async () => {
    const { id } = revenue()!;
    const { user } = renderApp(`/projects/${PROJECT}/insights/${id}`, { apiKey: api().demoKey });
    await user.click(await screen.findByRole('button', { name: 'Edit description' }));
    const box = screen.getByRole('textbox', { name: 'Description' });
    await user.clear(box);
    await user.type(box, '  Paid plans{Enter}by month  {Control>}{Enter}{/Control}');
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Description' })).toBeNull());
    expect(
      (api().store.db.prepare('SELECT description FROM insights WHERE id = ?').get(id) as { description: string })
        .description,
    ).toBe('Paid plans\nby month');
    expect(await screen.findByText(/Paid plans/)).toBeInTheDocument();
  });
});
