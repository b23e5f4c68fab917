import { describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import { TriageViews } from './TriageViews.js';

const health = {
  score: 63,
  open: 40,
  costs: [
    { kind: 'overdue', label: 'Overdue', records: 12, points: 25 },
    { kind: 'unowned', label: 'Nobody owns them', records: 1, points: 12 },
  ],
  trend: [
    { date: '2026-11-23', score: 71 },
    { date: '2026-11-24', score: 68 },
    { date: '2026-11-25', score: 63 },
  ],
};

function renderViews(answer: unknown) {
  const stub = stubFetch({ 'GET /api/triage/health': { body: answer } });
  const onChange = jest.fn();
  renderWithProviders(<TriageViews view={undefined} onChange={onChange} />);
  return { ...stub, onChange };
}

describe('TriageViews: change health', () => {
  it('shows the score of every tenant beside the views and opens what costs its points', async () => {
    const { calls } = renderViews(health);
    const chip = await screen.findByRole('button', { name: 'Change health 63/100' });
    expect(calls.map((c) => c.url)).toEqual(['/api/triage/health']);
    expect(chip).toHaveAttribute('aria-haspopup', 'dialog');
    expect(chip).toHaveAttribute('aria-expanded', 'false');
    // 63 is in the warning band.
    expect(chip.className).toMatch(/colorWarning/);

    fireEvent.click(chip);
    const dialog = await screen.findByRole('dialog', { name: 'Change health' });
    expect(chip).toHaveAttribute('aria-expanded', 'true');
    expect(within(dialog).getByText('63/100')).toBeInTheDocument();
    expect(within(dialog).getByText('40 open items')).toBeInTheDocument();
    const costs = within(within(dialog).getByRole('list', { name: 'What costs points' })).getAllByRole('listitem');
    expect(costs.map((li) => li.textContent)).toEqual(['Overdue · 12 items · −25 points', 'Nobody owns them · 1 item · −12 points']);
    expect(within(dialog).getByText(/^100 minus points for open items that are overdue, unowned/)).toBeInTheDocument();
    expect(within(dialog).getByRole('img', { name: 'Score over the last 3 days: from 71 to 63' })).toBeInTheDocument();
  });

  it('opens from the keyboard, closes with Escape back to the chip, and "See what is overdue" switches to the Overdue view', async () => {
    const { onChange } = renderViews(health);
    const chip = await screen.findByRole('button', { name: 'Change health 63/100' });
    act(() => chip.focus());
    fireEvent.keyDown(chip, { key: 'Enter' });
    const dialog = await screen.findByRole('dialog', { name: 'Change health' });
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(chip).toHaveFocus();
    fireEvent.keyDown(chip, { key: 'Enter' });
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Change health' })).getByRole('button', { name: 'See what is overdue' }));
    expect(onChange).toHaveBeenCalledWith('overdue');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('says nothing costs points when the score is whole, and has no trend before the first count', async () => {
    renderViews({ score: 100, open: 0, costs: [], trend: [] });
    const chip = await screen.findByRole('button', { name: 'Change health 100/100' });
    expect(chip.className).toMatch(/colorSuccess/);
    fireEvent.click(chip);
    const dialog = await screen.findByRole('dialog', { name: 'Change health' });
    expect(within(dialog).getByText('Nothing costs points')).toBeInTheDocument();
    expect(within(dialog).queryByRole('list')).not.toBeInTheDocument();
    expect(within(dialog).getByText('No daily scores yet: the trend fills from the first daily count.')).toBeInTheDocument();
  });

  it('colours a score under 50 as an error', async () => {
    renderViews({ ...health, score: 42 });
    expect((await screen.findByRole('button', { name: 'Change health 42/100' })).className).toMatch(/colorError/);
  });

  it('shows only the views when the score cannot be read', async () => {
    const { calls } = stubFetch({ 'GET /api/triage/health': { status: 500, body: { error: { name: 'Error', message: 'Boom' } } } });
    renderWithProviders(<TriageViews view="mine" onChange={() => undefined} />);
    await waitFor(() => expect(calls).toHaveLength(1));
    await waitFor(() => expect(screen.queryByRole('button', { name: /Change health/ })).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'My queue' })).toHaveAttribute('aria-pressed', 'true');
  });
});
