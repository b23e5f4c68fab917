import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { ToastProvider, useToast } from '../../toast/ToastProvider.js';
import { queueToastAfterReload, useToastStore } from '../../toast/toast-store.js';

function Trigger() {
  const { toast } = useToast();
  return (
    <>
      <button onClick={() => toast({ title: 'First', description: 'one' })}>first</button>
      <button onClick={() => toast({ title: 'Second', variant: 'destructive' })}>second</button>
    </>
  );
}

describe('toasts', () => {
  beforeEach(() => {
    jest.useFakeTimers();
    useToastStore.setState({ toasts: [] });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('shows one toast at a time and closes it after 5000 ms', () => {
    render(
      <ToastProvider>
        <Trigger />
      </ToastProvider>,
    );
    fireEvent.click(screen.getByText('first'));
    expect(screen.getByRole('status')).toHaveTextContent('First');
    fireEvent.click(screen.getByText('second'));
    expect(screen.queryByText('First')).not.toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Second');
    expect(screen.getByRole('alert')).toHaveAttribute('data-variant', 'destructive');
    act(() => {
      jest.advanceTimersByTime(4999);
    });
    expect(screen.getByText('Second')).toBeInTheDocument();
    act(() => {
      jest.advanceTimersByTime(1);
    });
    expect(screen.queryByText('Second')).not.toBeInTheDocument();
  });

  it('dismisses on a swipe right of 50 px, not less', () => {
    render(
      <ToastProvider>
        <Trigger />
      </ToastProvider>,
    );
    fireEvent.click(screen.getByText('first'));
    const card = screen.getByRole('status');
    fireEvent.pointerDown(card, { clientX: 100 });
    fireEvent.pointerMove(card, { clientX: 140 });
    fireEvent.pointerUp(card, { clientX: 140 });
    expect(screen.getByText('First')).toBeInTheDocument();
    fireEvent.pointerDown(card, { clientX: 100 });
    fireEvent.pointerMove(card, { clientX: 150 });
    fireEvent.pointerUp(card, { clientX: 150 });
    expect(screen.queryByText('First')).not.toBeInTheDocument();
  });

  it('focuses the notifications region on F8 and closes with the close button', () => {
    render(
      <ToastProvider>
        <Trigger />
      </ToastProvider>,
    );
    fireEvent.keyDown(window, { key: 'F8' });
    expect(screen.getByRole('region', { name: 'Notifications (F8)' })).toHaveFocus();
    fireEvent.click(screen.getByText('first'));
    fireEvent.click(screen.getByRole('button', { name: 'Close notification' }));
    expect(screen.queryByText('First')).not.toBeInTheDocument();
  });

  it('keeps a dismissed toast in the store, hidden, for 1,000,000 ms, then removes it', () => {
    render(
      <ToastProvider>
        <Trigger />
      </ToastProvider>,
    );
    fireEvent.click(screen.getByText('first'));
    fireEvent.click(screen.getByRole('button', { name: 'Close notification' }));
    expect(screen.queryByText('First')).not.toBeInTheDocument();
    expect(useToastStore.getState().toasts).toEqual([expect.objectContaining({ title: 'First', open: false })]);
    act(() => {
      jest.advanceTimersByTime(999_999);
    });
    expect(useToastStore.getState().toasts).toHaveLength(1);
    act(() => {
      jest.advanceTimersByTime(1);
    });
    expect(useToastStore.getState().toasts).toHaveLength(0);
  });

  it('shows a toast queued before a reload once', () => {
    queueToastAfterReload({ title: 'Successfully signed in' });
    render(<ToastProvider>{null}</ToastProvider>);
    expect(screen.getByText('Successfully signed in')).toBeInTheDocument();
    expect(window.sessionStorage.getItem('radar-pending-toast')).toBeNull();
  });
});
