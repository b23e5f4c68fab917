import { afterEach, describe, expect, it } from '@jest/globals';
import { fireEvent, screen, within, waitFor } from '@testing-library/react';
import type { ProductMapping } from '@radar/contracts';
import { useToastStore } from '@radar/shared-ui';
import { renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import { adminSession } from '../../test-utils/fixtures.js';
import { ProductsTab } from './ProductsTab.js';

afterEach(() => useToastStore.setState({ toasts: [] }));

const mappings: ProductMapping[] = [
  {
    id: 1,
    sourceProduct: 'Microsoft Teams',
    dataSource: 'roadmap',
    displayName: 'Teams',
    isActive: true,
    family: 'microsoft365',
    familySource: 'rule',
    ruleFamily: 'microsoft365',
    licence: { source: 'rule', plans: ['TEAMS1', 'TEAMS_*'] },
    updatedAt: '2026-03-01T00:00:00.000Z',
  },
  {
    id: 2,
    sourceProduct: 'Exchange Online',
    dataSource: 'message_center',
    displayName: 'Exchange',
    isActive: false,
    family: 'other',
    familySource: 'admin',
    ruleFamily: 'microsoft365',
    licence: { source: 'admin', plans: ['EXCHANGE_S_ENTERPRISE'] },
    updatedAt: '2026-03-01T00:00:00.000Z',
  },
];

async function mount(extra: Parameters<typeof stubFetch>[0] = {}) {
  const stub = stubFetch({
    ...adminSession,
    'GET /api/admin/product-mappings': { body: mappings },
    'PUT /api/admin/product-mappings/1': (init) => ({ body: { ...mappings[0], ...(JSON.parse(String(init?.body)) as object) } }),
    ...extra,
  });
  renderWithProviders(<ProductsTab />);
  await screen.findByRole('table', { name: 'Product mappings' });
  return stub;
}

const puts = (calls: Array<{ method: string; body: unknown }>) => calls.filter((c) => c.method === 'PUT').map((c) => c.body);
const edit = () => {
  fireEvent.click(screen.getByRole('button', { name: 'Edit display name of Microsoft Teams: Teams' }));
  return screen.getByRole('textbox', { name: 'Display name for Microsoft Teams' });
};

describe('ProductsTab', () => {
  it('Enter saves the trimmed new display name', async () => {
    const { calls } = await mount();
    const field = edit();
    fireEvent.change(field, { target: { value: '  Microsoft Teams (all)  ' } });
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(await screen.findByText('Product mapping updated')).toBeInTheDocument();
    expect(puts(calls)).toEqual([{ displayName: 'Microsoft Teams (all)' }]);
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
  });

  it('blur saves too, but only when the trimmed value changed', async () => {
    const { calls } = await mount();
    let field = edit();
    fireEvent.change(field, { target: { value: ' Teams ' } });
    fireEvent.blur(field);
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(puts(calls)).toEqual([]);
    field = edit();
    fireEvent.change(field, { target: { value: 'Teams Premium' } });
    fireEvent.blur(field);
    await waitFor(() => expect(puts(calls)).toEqual([{ displayName: 'Teams Premium' }]));
  });

  it('Escape cancels without saving, even when the field then loses focus', async () => {
    const { calls } = await mount();
    const field = edit();
    fireEvent.change(field, { target: { value: 'Something else' } });
    fireEvent.keyDown(field, { key: 'Escape' });
    fireEvent.blur(field);
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit display name of Microsoft Teams: Teams' })).toBeInTheDocument();
    expect(puts(calls)).toEqual([]);
  });

  it('toggles active and reports update failures with the message', async () => {
    const { calls } = await mount({ 'PUT /api/admin/product-mappings/2': { status: 400, body: { error: { name: 'InputError', message: 'bad toggle' } } } });
    fireEvent.click(screen.getByRole('switch', { name: 'Microsoft Teams active' }));
    await waitFor(() => expect(puts(calls)).toEqual([{ isActive: false }]));
    fireEvent.click(screen.getByRole('switch', { name: 'Exchange Online active' }));
    expect(await screen.findByText('Failed to update product mapping: bad toggle')).toBeInTheDocument();
  });

  it('initializes and deletes, with their failure texts', async () => {
    const { calls } = await mount({
      'POST /api/admin/product-mappings/initialize': { status: 500, body: { error: { name: 'Error', message: 'database down' } } },
      'DELETE /api/admin/product-mappings/2': { status: 404, body: { error: { name: 'NotFoundError', message: 'Product mapping 2 not found' } } },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Initialize Mappings' }));
    expect(await screen.findByText('Failed to initialize product mapping: database down')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Delete mapping Exchange Online' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete product mapping' });
    expect(confirm).toHaveTextContent('Delete the mapping for Exchange Online?');
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete Mapping' }));
    expect(await screen.findByText('Failed to delete product mapping: Product mapping 2 not found')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
  });

  it('shows each product family, by rule or by an admin, and sets one or gives it back to the rules', async () => {
    const { calls } = await mount({
      'PUT /api/admin/product-mappings/2': (init) => ({ body: { ...mappings[1], ...(JSON.parse(String(init?.body)) as object) } }),
    });
    const teams = screen.getByRole('combobox', { name: 'Product family of Microsoft Teams' });
    expect(teams).toHaveTextContent('Microsoft 365 (by rule)');
    expect(screen.getByRole('combobox', { name: 'Product family of Exchange Online' })).toHaveTextContent('Other');
    fireEvent.mouseDown(teams);
    fireEvent.click(await screen.findByRole('option', { name: 'Dynamics 365' }));
    await waitFor(() => expect(puts(calls)).toContainEqual({ family: 'dynamics365' }));
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Product family of Exchange Online' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Microsoft 365 (by rule)' }));
    await waitFor(() => expect(puts(calls)).toContainEqual({ family: null }));
  });

  it('shows which plans license each product and saves an admin’s plans or gives the product back to the table', async () => {
    const { calls } = stubFetch({
      ...adminSession,
      'GET /api/admin/product-mappings': { body: mappings },
      'PUT /api/admin/product-mappings/1': { body: { ...mappings[0], licence: { source: 'admin', plans: ['TEAMS1', 'MCOEV'] } } },
      'PUT /api/admin/product-mappings/2': { body: { ...mappings[1], licence: { source: 'rule', plans: [] } } },
    });
    renderWithProviders(<ProductsTab />);
    expect(await screen.findByText('TEAMS1, TEAMS_*')).toBeInTheDocument();
    expect(screen.getByText('By the licence table')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Edit the licence plans of Microsoft Teams' }));
    fireEvent.change(screen.getByLabelText('Service plans licensing Microsoft Teams'), { target: { value: 'TEAMS1, MCOEV' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT' && c.url.endsWith('/1'))?.body).toEqual({ licencePlans: ['TEAMS1', 'MCOEV'] }));
    fireEvent.click(screen.getByRole('button', { name: 'Use the licence table for Exchange Online' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT' && c.url.endsWith('/2'))?.body).toEqual({ licencePlans: null }));
  });
});
