import { createContext, useContext, useLayoutEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { CssBaseline, ThemeProvider as MuiThemeProvider, createTheme, useColorScheme, type PaletteOptions } from '@mui/material';
import { useHydrated } from '../hydration/useHydrated.js';
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

function palette(mode: ResolvedTheme): PaletteOptions {
  return {
    primary: { main: mode === 'dark' ? '#60a5fa' : '#1d4ed8' },
    success: { main: mode === 'dark' ? '#4ade80' : '#15803d' },
    error: { main: mode === 'dark' ? '#f87171' : '#b91c1c' },
    // Chips and badges (Updated, Featured) carry text on these colours: dark enough for white text in light mode,
    // light enough for dark text in dark mode (WCAG AA 4.5:1 either way).
    info: { main: mode === 'dark' ? '#38bdf8' : '#0369a1' },
    warning: { main: mode === 'dark' ? '#fbbf24' : '#b45309' },
    background: mode === 'dark' ? { default: '#0b1120', paper: '#111827' } : { default: '#f8fafc', paper: '#ffffff' },
  };
}

/**
 * One theme for both modes, written as CSS variables: every style refers to `var(--mui-palette-…)`, and the
 * `light`/`dark` class on <html> chooses their values. So a page rendered on the server (which cannot know the
 * reader's choice) is right in either mode from its first paint: the page's head script sets the class before
 * anything is drawn (DARK_FIRST_PAINT_SCRIPT in @radar/contracts), and hydration changes no style.
 */
export function buildTheme() {
  return createTheme({
    cssVariables: { colorSchemeSelector: 'class' },
    colorSchemes: { light: { palette: palette('light') }, dark: { palette: palette('dark') } },
    shape: { borderRadius: 8 },
    typography: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif' },
    components: { MuiButton: { defaultProps: { disableElevation: true }, styleOverrides: { root: { textTransform: 'none' } } } },
  });
}

const theme = buildTheme();

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
      <MuiThemeProvider theme={theme} modeStorageKey={THEME_STORAGE_KEY} defaultMode="system" disableTransitionOnChange>
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
