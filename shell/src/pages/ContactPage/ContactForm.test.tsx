import { beforeEach, describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import { useToastStore } from '@radar/shared-ui';
import { ContactForm } from './ContactForm.js';

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const fillValid = () => {
  type('First name', 'Ada');
  type('Last name', 'Lovelace');
  type('Email', 'ada@example.com');
  type('Message', 'Please add GCC High filters.');
};

describe('ContactForm', () => {
  beforeEach(() => useToastStore.setState({ toasts: [] }));

  it('shows the contact form validation messages and sends nothing', async () => {
    const { calls } = stubFetch({});
    renderWithProviders(<ContactForm />, { withAuthDialog: false });
    type('First name', 'A');
    type('Last name', 'L');
    type('Email', 'nope');
    type('Message', 'too short');
    fireEvent.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText('First name must be at least 2 characters')).toBeInTheDocument();
    expect(screen.getByText('Last name must be at least 2 characters')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText('Message must be at least 10 characters')).toBeInTheDocument();
    expect(calls.filter((c) => c.url === '/api/contact')).toHaveLength(0);
  });

  it('posts the form and shows the success view', async () => {
    const { calls } = stubFetch({ 'POST /api/contact': { status: 201, body: { success: true } } });
    renderWithProviders(<ContactForm />, { withAuthDialog: false });
    fillValid();
    fireEvent.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText('Message sent')).toBeInTheDocument();
    expect(calls.find((c) => c.url === '/api/contact')?.body).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      message: 'Please add GCC High filters.',
    });
  });

  it('toasts the failure text when sending fails', async () => {
    stubFetch({ 'POST /api/contact': { status: 500, body: { error: { name: 'Error', message: 'down' } } } });
    renderWithProviders(<ContactForm />, { withAuthDialog: false });
    fillValid();
    fireEvent.click(screen.getByRole('button', { name: 'Send Message' }));
    await waitFor(() =>
      expect(useToastStore.getState().toasts[0]).toMatchObject({
        title: 'Error sending message',
        description: 'Please try again later or contact us directly.',
        variant: 'destructive',
      }),
    );
  });
});
