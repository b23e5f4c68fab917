import { describe, expect, it } from '@jest/globals';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation, useNavigate } from 'react-router-dom';
import { useUrlParams } from './useUrlParams.js';

function renderWriter(initial: string) {
  const wrapper = ({ children }: { children: ReactNode }) => <MemoryRouter initialEntries={[initial]}>{children}</MemoryRouter>;
  return renderHook(() => ({ url: useUrlParams(), location: useLocation(), navigate: useNavigate() }), { wrapper });
}

const set = (name: string, value: string) => (previous: URLSearchParams) => {
  const next = new URLSearchParams(previous);
  next.set(name, value);
  return next;
};

describe('useUrlParams', () => {
  it('keeps both of two writes made before the next render', () => {
    const { result } = renderWriter('/dashboard?sources=roadmap');
    act(() => {
      const [, update] = result.current.url;
      // A row opens its dialog, and in the same turn the typed search is written, replacing the entry.
      update(set('roadmap', '412345'));
      update(set('search', 'recap'), { replace: true });
    });
    expect(result.current.location.search).toBe('?sources=roadmap&roadmap=412345&search=recap');
    expect(result.current.url[0].get('roadmap')).toBe('412345');
  });

  it('starts from the location again after Back', () => {
    const { result } = renderWriter('/dashboard?search=teams');
    act(() => result.current.url[1](set('roadmap', '1')));
    act(() => void result.current.navigate(-1));
    expect(result.current.location.search).toBe('?search=teams');
    act(() => result.current.url[1](set('page', '2')));
    expect(result.current.location.search).toBe('?search=teams&page=2');
  });
});
