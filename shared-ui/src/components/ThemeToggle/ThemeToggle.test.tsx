import { describe, expect, it } from '@jest/globals';
import { act, fireEvent, screen } from '@testing-library/react';
import { RadarThemeProvider } from '../../theme/ThemeProvider.js';
import { THEME_STORAGE_KEY, useThemeStore } from '../../theme/theme-store.js';
import { render } from '@testing-library/react';
import { ThemeToggle } from './ThemeToggle.js';

const media = (globalThis as unknown as { __media: { prefersDark: boolean; listeners: Set<(e: MediaQueryListEvent) => void> } }).__media;

function setup() {
  useThemeStore.setState({ preference: 'system' });
  return render(
    <RadarThemeProvider>
      <ThemeToggle />
    </RadarThemeProvider>,
  );
}

describe('ThemeToggle', () => {
  it('defaults to system and follows the OS preference live', () => {
    setup();
    expect(document.documentElement).toHaveClass('light');
    act(() => {
      media.prefersDark = true;
      media.listeners.forEach((listener) => listener({ matches: true } as MediaQueryListEvent));
    });
    expect(document.documentElement).toHaveClass('dark');
    expect(document.documentElement).not.toHaveClass('light');
  });

  it('offers Light, Dark and System behind the Toggle theme button and stores the choice', async () => {
    setup();
    fireEvent.click(screen.getByRole('button', { name: 'Toggle theme' }));
    expect(await screen.findByRole('menuitemradio', { name: 'System' })).toHaveAttribute('aria-checked', 'true');
    fireEvent.click(screen.getByRole('menuitemradio', { name: 'Dark' }));
    expect(document.documentElement).toHaveClass('dark');
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');

    fireEvent.click(screen.getByRole('button', { name: 'Toggle theme' }));
    fireEvent.click(screen.getByRole('menuitemradio', { name: 'Light' }));
    expect(document.documentElement).toHaveClass('light');
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
  });
});
