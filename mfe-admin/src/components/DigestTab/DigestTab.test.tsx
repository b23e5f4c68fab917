import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useToastStore } from '@radar/shared-ui';
import { renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import type { DigestReport } from '@radar/contracts';
import { useDigestStore } from '../../state/digest-store.js';
import { adminSession, messageItem, roadmapItem } from '../../test-utils/fixtures.js';
import { DigestTab } from './DigestTab.js';

beforeEach(() => useDigestStore.setState({ report: null, summary: null }));
afterEach(() => useToastStore.setState({ toasts: [] }));

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
const items = {
  'GET /api/roadmap/items': {
    body: {
      items: [
        roadmapItem({ createdDate: daysAgo(2), status: 'In development' }),
        roadmapItem({ itemId: '99', title: 'Old but changed', createdDate: daysAgo(90), status: 'Cancelled' }),
      ],
      total: 2,
      totalPages: 1,
    },
  },
  'GET /api/message-center/items': { body: { items: [messageItem({ createdDate: daysAgo(40), publishedDate: daysAgo(40) })], total: 1, totalPages: 1 } },
};

const summaryAnswer = {
  summary: '<h2>Highlights</h2><p>Teams <a href="https://x.example">recap</a></p><img src=x onerror="alert(1)"><script>alert(1)</script>',
  kind: 'extractive',
  model: null,
};

describe('DigestTab report', () => {
  it('builds the 30-day report from both item lists and shows it as tables', async () => {
    const { calls } = stubFetch({ ...adminSession, ...items });
    renderWithProviders(<DigestTab />);
    fireEvent.click(screen.getByRole('button', { name: 'Last 30 days' }));
    fireEvent.click(screen.getByRole('button', { name: 'Generate Report' }));
    expect(await screen.findByText(/Last 30 days: 1 new and 1 updated roadmap items, 0 new and 1 updated Message Center items/)).toBeInTheDocument();
    const urls = calls.filter((c) => c.url.includes('/items?')).map((c) => c.url);
    expect(urls).toEqual([
      '/api/roadmap/items?changeTypes=new_30days&changeTypes=changed_30days&page=1&limit=1000',
      '/api/message-center/items?changeTypes=new_30days&changeTypes=changed_30days&page=1&limit=1000',
    ]);
    const newRoadmap = screen.getByRole('table', { name: 'New Roadmap Items' });
    expect(within(newRoadmap).getByText('In development').closest('[data-status-color]')).toHaveAttribute('data-status-color', 'blue');
    expect(
      within(screen.getByRole('table', { name: 'Updated Roadmap Items' }))
        .getByText('Cancelled')
        .closest('[data-status-color]'),
    ).toHaveAttribute('data-status-color', 'red');
    const updatedMessages = screen.getByRole('table', { name: 'Updated Message Center Items' });
    expect(within(updatedMessages).getByText('Exchange Online')).toBeInTheDocument();
    expect(within(updatedMessages).getAllByText('+1')).toHaveLength(2);
    expect(within(updatedMessages).getByRole('link', { name: 'MC100' })).toHaveAttribute('href', 'http://localhost/dashboard?message=MC100');
  });

  it('says so when a source had more than 1,000 items in the window', async () => {
    stubFetch({
      ...adminSession,
      'GET /api/roadmap/items': { body: { ...items['GET /api/roadmap/items'].body, total: 1500, totalPages: 2, page: 1 } },
      'GET /api/message-center/items': items['GET /api/message-center/items'],
    });
    renderWithProviders(<DigestTab />);
    fireEvent.click(screen.getByRole('button', { name: 'Generate Report' }));
    expect(
      await screen.findByText(/This report is incomplete: it holds the first 1,000 items per source\. 2 of 1,500 roadmap items are included\./),
    ).toBeInTheDocument();
  });

  it('shows no truncation notice when everything fits', async () => {
    stubFetch({ ...adminSession, ...items });
    renderWithProviders(<DigestTab />);
    fireEvent.click(screen.getByRole('button', { name: 'Generate Report' }));
    await screen.findByText(/Last 7 days:/);
    expect(screen.queryByText(/This report is incomplete/)).not.toBeInTheDocument();
  });

  it("toasts 'Failed to generate digest report.' when a list call fails", async () => {
    stubFetch({ ...adminSession, 'GET /api/roadmap/items': items['GET /api/roadmap/items'], 'GET /api/message-center/items': { status: 500 } });
    renderWithProviders(<DigestTab />);
    fireEvent.click(screen.getByRole('button', { name: 'Generate Report' }));
    expect(await screen.findByText('Failed to generate digest report.')).toBeInTheDocument();
  });

  it('summarises the report and shows the sanitised HTML labelled extractive', async () => {
    const { calls } = stubFetch({ ...adminSession, ...items, 'POST /api/admin/generate-summary': { body: summaryAnswer } });
    renderWithProviders(<DigestTab />);
    expect(screen.getByRole('button', { name: 'Generate AI Summary' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Generate Report' }));
    await screen.findByText(/Last 7 days:/);
    fireEvent.click(screen.getByRole('button', { name: 'Generate AI Summary' }));
    const html = await screen.findByTestId('summary-html');
    expect(within(html).getByRole('heading', { name: 'Highlights' })).toBeInTheDocument();
    expect(within(html).getByRole('link', { name: 'recap' })).toHaveAttribute('rel', 'noopener noreferrer');
    expect(html.innerHTML).not.toMatch(/script|onerror|<img/);
    expect(screen.getByText('Extractive summary')).toBeInTheDocument();
    const body = calls.find((c) => c.method === 'POST')?.body as { reportData: DigestReport };
    expect(body.reportData.timeframe).toBe(7);
    expect(body.reportData.messageCenter.updatedItems[0].link).toBe('http://localhost/dashboard?message=MC100');
    // Roadmap rows keep their products; message rows carry their services.
    expect(body.reportData.roadmap.newItems[0].products.length).toBeGreaterThan(0);
    expect(body.reportData.messageCenter.updatedItems[0].products).toContain('Exchange Online');
  });

  it("toasts 'Failed to generate AI summary: {message}'", async () => {
    stubFetch({
      ...adminSession,
      ...items,
      'POST /api/admin/generate-summary': { status: 504, body: { error: { name: 'AiTimeoutError', message: 'The AI service did not answer in time' } } },
    });
    renderWithProviders(<DigestTab />);
    fireEvent.click(screen.getByRole('button', { name: 'Generate Report' }));
    await screen.findByText(/Last 7 days:/);
    fireEvent.click(screen.getByRole('button', { name: 'Generate AI Summary' }));
    expect(await screen.findByText('Failed to generate AI summary: The AI service did not answer in time')).toBeInTheDocument();
  });
});

describe('DigestTab file upload', () => {
  const upload = (content: string, name: string) =>
    fireEvent.change(screen.getByTestId('summary-file-input'), { target: { files: [new File([content], name, { type: 'application/json' })] } });

  it('sends a JSON file parsed, and labels an AI summary with its model', async () => {
    const { calls } = stubFetch({ ...adminSession, 'POST /api/admin/generate-summary': { body: { summary: '<p>ok</p>', kind: 'ai', model: 'gpt-test' } } });
    renderWithProviders(<DigestTab />);
    upload('{"roadmap":{"newItems":[{"itemId":"1","title":"A"}]}}', 'report.json');
    expect(await screen.findByText('AI summary · gpt-test')).toBeInTheDocument();
    expect(screen.getByText('from report.json (JSON)')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ reportData: { roadmap: { newItems: [{ itemId: '1', title: 'A' }] } } });
  });

  it('sends a file that is not JSON as plain text', async () => {
    const { calls } = stubFetch({ ...adminSession, 'POST /api/admin/generate-summary': { body: { summary: '<p>ok</p>', kind: 'extractive', model: null } } });
    renderWithProviders(<DigestTab />);
    upload('Teams: recap is rolling out.\nExchange: basic auth retires.', 'notes.json');
    expect(await screen.findByText('from notes.json (plain text)')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ reportData: 'Teams: recap is rolling out.\nExchange: basic auth retires.' });
  });

  it("toasts 'Failed to process file. Please try again.' when the file cannot be read", async () => {
    stubFetch({ ...adminSession });
    const spy = jest.spyOn(FileReader.prototype, 'readAsText').mockImplementation(function (this: FileReader) {
      this.onerror?.(new ProgressEvent('error') as ProgressEvent<FileReader>);
    });
    renderWithProviders(<DigestTab />);
    upload('{}', 'broken.json');
    expect(await screen.findByText('Failed to process file. Please try again.')).toBeInTheDocument();
    spy.mockRestore();
  });
});

describe('DigestTab test notification', () => {
  const fill = async (itemId: string, type?: string) => {
    fireEvent.change(screen.getByLabelText(/Item ID/), { target: { value: itemId } });
    if (type) {
      fireEvent.mouseDown(screen.getByRole('combobox', { name: /Item Type/ }));
      fireEvent.click(await screen.findByRole('option', { name: type }));
    }
  };

  it("requires Item ID and Item Type ('Please fill in Item ID and Item Type')", async () => {
    const { calls } = stubFetch({ ...adminSession });
    renderWithProviders(<DigestTab />);
    await fill('412345');
    fireEvent.click(screen.getByRole('button', { name: 'Send Test Notification' }));
    expect(await screen.findByText('Please fill in Item ID and Item Type')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('sends itemId, itemType and the optional summary; shows the server message on failure', async () => {
    let fail = false;
    const { calls } = stubFetch({
      ...adminSession,
      'POST /api/admin/test-notification': () =>
        fail
          ? { status: 404, body: { error: { name: 'NotFoundError', message: 'Message MC9 not found' } } }
          : { body: { success: true, message: 'Test notification sent to admin@example.com', delivery: 'sent' } },
    });
    renderWithProviders(<DigestTab />);
    await fill(' 412345 ', 'Roadmap');
    fireEvent.change(screen.getByLabelText('Changes summary (optional)'), { target: { value: 'Status changed' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send Test Notification' }));
    expect(await screen.findByText('Test notification sent to admin@example.com')).toBeInTheDocument();
    expect(screen.getByText('Test notification sent')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ itemId: '412345', itemType: 'roadmap', changesSummary: 'Status changed' });
    fail = true;
    await fill('MC9', 'Message Center');
    fireEvent.click(screen.getByRole('button', { name: 'Send Test Notification' }));
    expect(await screen.findByText('Message MC9 not found')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Send Test Notification' })).toBeEnabled());
  });

  it("says 'queued', not 'sent', when the server has not handed the mail to an SMTP server", async () => {
    stubFetch({
      ...adminSession,
      'POST /api/admin/test-notification': {
        body: { success: true, message: 'Test notification queued for admin@example.com: no SMTP server is configured', delivery: 'queued' },
      },
    });
    renderWithProviders(<DigestTab />);
    await fill('412345', 'Roadmap');
    fireEvent.click(screen.getByRole('button', { name: 'Send Test Notification' }));
    expect(await screen.findByText('Test notification queued')).toBeInTheDocument();
    expect(screen.getByText('Test notification queued for admin@example.com: no SMTP server is configured')).toBeInTheDocument();
    expect(screen.queryByText('Test notification sent')).not.toBeInTheDocument();
  });
});
