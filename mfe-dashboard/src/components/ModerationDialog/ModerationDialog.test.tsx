import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { ACTIVITY_DETAILS_MAX_CHARS, ACTIVITY_NOTE_CHARS, moderatorActivityRequest } from '@radar/contracts';
import { useToastStore } from '@radar/shared-ui';
import { makeUser, renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import { roadmapItem } from '../../test-utils/fixtures.js';
import { ModerationDialog } from './ModerationDialog.js';
import { moderatorActivityFor, noteAction } from './moderation-actions.js';

afterEach(() => useToastStore.setState({ toasts: [] }));

const moderator = { 'GET /api/auth/session-user': { body: { user: makeUser({ id: 5, email: 'mod@example.com', roles: [{ id: 2, name: 'Moderator' }] }) } } };
const link = { title: 'Guide', url: 'https://example.com/guide', type: 'documentation' as const };

describe('the moderator-activity record of a save', () => {
  it('note rule exactly as written: added from empty, removed when the new note is empty, otherwise updated', () => {
    expect(noteAction('', 'watch this')).toBe('note_added');
    expect(noteAction('  ', 'watch this')).toBe('note_added');
    expect(noteAction('old', '')).toBe('note_removed');
    expect(noteAction('old', '   ')).toBe('note_removed');
    expect(noteAction('', '')).toBe('note_removed');
    expect(noteAction('old', 'new')).toBe('note_updated');
    expect(noteAction('same', 'same')).toBe('note_updated');
  });

  it('is one record: the featured change first, then links, then the note; details list every change', () => {
    const before = { isFeatured: false, thirdPartyLinks: [link], moderatorNotes: '' };
    const added = { title: 'Video', url: 'https://example.com/v', type: 'video' as const };
    const all = moderatorActivityFor(before, { isFeatured: true, thirdPartyLinks: [added], moderatorNotes: 'n' });
    expect(all.actionType).toBe('featured');
    expect(all.details.changes).toEqual(['featured', 'link_added', 'link_removed', 'note_added']);
    expect(all.details.linksAdded).toEqual([added]);
    expect(all.details.linksRemoved).toEqual([link]);
    expect(moderatorActivityFor({ ...before, isFeatured: true }, { isFeatured: false, thirdPartyLinks: [link], moderatorNotes: '' }).actionType).toBe(
      'unfeatured',
    );
    expect(moderatorActivityFor(before, { isFeatured: false, thirdPartyLinks: [], moderatorNotes: '' }).actionType).toBe('link_removed');
    expect(moderatorActivityFor({ ...before, moderatorNotes: 'old' }, { isFeatured: false, thirdPartyLinks: [link], moderatorNotes: 'new' }).actionType).toBe(
      'note_updated',
    );
    // A save that changed nothing still gets its one record; the note rule names it.
    const unchanged = moderatorActivityFor(before, { isFeatured: false, thirdPartyLinks: [link], moderatorNotes: '' });
    expect(unchanged.actionType).toBe('note_removed');
    expect(unchanged.details.changes).toEqual([]);
  });

  it("stays within the server's details limit: notes clipped, links beyond it counted", () => {
    const many = Array.from({ length: 50 }, (_, i) => ({
      title: `Guide ${i} ${'x'.repeat(200)}`,
      url: `https://example.com/${i}`,
      type: 'documentation' as const,
    }));
    const record = moderatorActivityFor(
      { isFeatured: false, thirdPartyLinks: [], moderatorNotes: 'a'.repeat(10_000) },
      { isFeatured: false, thirdPartyLinks: many, moderatorNotes: 'b'.repeat(10_000) },
    );
    expect(JSON.stringify(record.details).length).toBeLessThanOrEqual(ACTIVITY_DETAILS_MAX_CHARS);
    const request = { actionType: record.actionType, itemType: 'roadmap', itemId: '990001', details: record.details };
    expect(moderatorActivityRequest.safeParse(request).success).toBe(true);
    expect(record.details.previousNote).toHaveLength(ACTIVITY_NOTE_CHARS);
    expect(record.details.newNote.endsWith('…')).toBe(true);
    expect(record.details.linksAdded.length).toBeGreaterThan(0);
    expect(record.details.linksAdded.length + record.details.linksOmitted).toBe(50);
    expect(record.details.changes).toEqual(['link_added', 'note_updated']);
  });
});

describe('ModerationDialog', () => {
  it('enables Add Link only with a title and a url; type defaults to other', () => {
    stubFetch(moderator);
    renderWithProviders(<ModerationDialog item={roadmapItem()} open onClose={() => undefined} />);
    const add = screen.getByRole('button', { name: 'Add Link' });
    expect(add).toBeDisabled();
    expect(screen.getByRole('combobox', { name: 'Link type' })).toHaveTextContent('Other');
    fireEvent.change(screen.getByLabelText('Link title'), { target: { value: 'Guide' } });
    expect(add).toBeDisabled();
    fireEvent.change(screen.getByLabelText('Link URL'), { target: { value: '   ' } });
    expect(add).toBeDisabled();
    fireEvent.change(screen.getByLabelText('Link URL'), { target: { value: 'https://example.com/guide' } });
    expect(add).toBeEnabled();
    fireEvent.click(add);
    expect(screen.getByText('Guide (Other)')).toBeInTheDocument();
    expect(screen.getByLabelText('Link title')).toHaveValue('');
    expect(screen.getByLabelText('Internal notes')).toHaveAttribute('rows', '4');
  });

  it('saves, shows Saving..., posts the activity records and closes', async () => {
    let release: () => void = () => undefined;
    const stored = roadmapItem({ isFeatured: true, thirdPartyLinks: [], moderatorNotes: '', moderatedBy: 'mod@example.com' });
    const { calls } = stubFetch({
      ...moderator,
      'PUT /api/moderator/roadmap/412345': () => ({ body: { success: true, message: 'Moderation settings updated successfully', item: stored } }),
      'POST /api/moderator-activity': { status: 500, body: { error: { name: 'Error', message: 'activity store down' } } },
    });
    const gate = new Promise<void>((resolve) => (release = resolve));
    const originalFetch = window.fetch;
    window.fetch = (async (...args: Parameters<typeof fetch>) => {
      if (String(args[0]).includes('/api/moderator/roadmap/')) await gate;
      return originalFetch(...args);
    }) as typeof fetch;
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const onClose = jest.fn();
    const onSaved = jest.fn();
    renderWithProviders(
      <ModerationDialog item={roadmapItem({ thirdPartyLinks: [link], moderatorNotes: 'old note' })} open onClose={onClose} onSaved={onSaved} />,
    );
    await waitFor(() => expect(calls.some((c) => c.url.includes('session-user'))).toBe(true));
    await screen.findByText('Guide (Documentation)');
    fireEvent.click(screen.getByRole('switch', { name: 'Featured item' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove link Guide' }));
    fireEvent.change(screen.getByLabelText('Internal notes'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('button', { name: 'Saving...' })).toBeDisabled();
    release();
    expect(await screen.findByText('Moderation settings updated successfully')).toBeInTheDocument();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.body).toEqual({ isFeatured: true, thirdPartyLinks: [], moderatorNotes: '' });
    const activity = calls.filter((c) => c.method === 'POST' && c.url.endsWith('/api/moderator-activity')).map((c) => c.body as Record<string, unknown>);
    expect(activity).toHaveLength(1);
    expect(activity[0]).toMatchObject({
      userId: 5,
      userEmail: 'mod@example.com',
      actionType: 'featured',
      itemType: 'roadmap',
      itemId: '412345',
      itemTitle: 'Microsoft Teams: new meeting recap',
      details: { changes: ['featured', 'link_removed', 'note_removed'], previousNote: 'old note', newNote: '' },
    });
    // The dialog gets the item the server answered with, not a local rebuild.
    expect(onSaved).toHaveBeenCalledWith(stored);
    expect(consoleError).toHaveBeenCalled();
    consoleError.mockRestore();
  });

  it('posts no activity record for a save that changed nothing', async () => {
    const item = roadmapItem({ thirdPartyLinks: [], moderatorNotes: '' });
    const onClose = jest.fn();
    const { calls } = stubFetch({
      ...moderator,
      'PUT /api/moderator/roadmap/412345': () => ({ body: { success: true, message: 'Moderation settings updated successfully', item } }),
      'POST /api/moderator-activity': { status: 201, body: {} },
    });
    renderWithProviders(<ModerationDialog item={item} open onClose={onClose} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1);
    expect(calls.filter((c) => c.url.endsWith('/api/moderator-activity'))).toEqual([]);
    expect(
      moderatorActivityFor({ isFeatured: false, thirdPartyLinks: [], moderatorNotes: '' }, { isFeatured: false, thirdPartyLinks: [], moderatorNotes: '' })
        .details.changes,
    ).toEqual([]);
  });

  it('shows the server message on failure, else the generic one', async () => {
    stubFetch({
      ...moderator,
      'PUT /api/moderator/message/MC1': { status: 400, body: { error: { name: 'InputError', message: 'url must start with http:// or https://' } } },
    });
    renderWithProviders(<ModerationDialog item={{ ...roadmapItem(), source: 'messages', itemId: null, messageId: 'MC1' }} open onClose={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('url must start with http:// or https://')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it('falls back to the generic failure message', async () => {
    stubFetch({ ...moderator, 'PUT /api/moderator/roadmap/412345': { status: 502 } });
    renderWithProviders(<ModerationDialog item={roadmapItem()} open onClose={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Failed to update moderation settings')).toBeInTheDocument();
  });
});
