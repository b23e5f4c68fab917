import { createContext, useContext, useLayoutEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { CssBaseline, ThemeProvider as MuiThemeProvider, useColorScheme } from '@mui/material';
import { useHydrated } from '../hydration/useHydrated.js';
import { buildTheme, THEME_STYLESHEET_ATTRIBUTE } from './build-theme.js';
import { DARK_QUERY, systemPrefersDark, THEME_STORAGE_KEY, useThemeStore, type ResolvedTheme, type ThemePreference } from './theme-store.js';

export interface ThemeContextValue {
  /** What the user chose: light, dark or system (the default). */
  preference: ThemePreference;
  /** What is shown now; with system it follows the operating system live. */
  resolved: ResolvedTheme;
  setPreference: (preference: ThemePreference) => void;
}

const ThemeContext = createContext<ThemeContextValue | null>(null);

function subscribeToSystemTheme(onChange: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => undefined;
  const query = window.matchMedia(DARK_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

const serverPrefersDark = () => false;

/** The operating system's dark preference, followed live. */
function useSystemDark(): boolean {
  // A server render (and so the browser's hydrating render) cannot know it: light, then the browser's own answer.
  return useSyncExternalStore(subscribeToSystemTheme, systemPrefersDark, serverPrefersDark);
}

const theme = buildTheme();

/**
 * The theme's CSS variables (both modes: 22 KB) come from a static stylesheet when the page links one (the shell's
 * index.html: `theme.<hash>.css`, built from the same theme, cached by the browser across pages and visits), instead
 * of a <style> the provider writes into every page. The server renders only into the shell's page, which links it.
 * Pages without the link (a remote's own dev page, component tests) get the variables from the provider as before.
 */
const STATIC_THEME_SHEET = typeof document === 'undefined' || document.querySelector(`link[${THEME_STYLESHEET_ATTRIBUTE}]`) !== null;

/** Keeps MUI's own mode (what `theme.palette` reads in the browser) on the reader's choice. */
function FollowPreference({ preference }: { preference: ThemePreference }) {
  const { setMode } = useColorScheme();
  useLayoutEffect(() => {
    setMode(preference);
  }, [preference, setMode]);
  return null;
}

/** Applies the theme choice: a `light`/`dark` class on <html> and the MUI theme's mode. */
export function RadarThemeProvider({ children }: { children: ReactNode }) {
  const preference = useThemeStore((s) => s.preference);
  const setPreference = useThemeStore((s) => s.setPreference);
  const systemDark = useSystemDark();
  // A server render knows neither the stored choice nor the system's: what it reports is light until hydrated (the
  // theme toggle's icon). Its styles are the same in both modes (CSS variables), so hydration never restyles.
  const hydrated = useHydrated();
  const chosen: ResolvedTheme = preference === 'system' ? (systemDark ? 'dark' : 'light') : preference;
  const resolved: ResolvedTheme = hydrated ? chosen : 'light';

  useLayoutEffect(() => {
    // Before hydration the head script's class stands (it read the same choice).
    if (!hydrated) return;
    const root = document.documentElement;
    root.classList.remove('light', 'dark');
    root.classList.add(chosen);
    root.style.colorScheme = chosen;
  }, [chosen, hydrated]);

  const value = useMemo(() => ({ preference, resolved, setPreference }), [preference, resolved, setPreference]);
  return (
    <ThemeContext.Provider value={value}>
      <MuiThemeProvider
        theme={theme}
        modeStorageKey={THEME_STORAGE_KEY}
        defaultMode="system"
        disableTransitionOnChange
        disableStyleSheetGeneration={STATIC_THEME_SHEET}
      >
        <FollowPreference preference={preference} />
        <CssBaseline enableColorScheme />
        {children}
      </MuiThemeProvider>
    </ThemeContext.Provider>
  );
}

/** The theme choice; works without the provider too (reads the shared store). */
export function useThemePreference(): ThemeContextValue {
  const context = useContext(ThemeContext);
  const preference = useThemeStore((s) => s.preference);
  const setPreference = useThemeStore((s) => s.setPreference);
  if (context) return context;
  const resolved: ResolvedTheme = preference === 'system' ? (systemPrefersDark() ? 'dark' : 'light') : preference;
  return { preference, resolved, setPreference };
}
