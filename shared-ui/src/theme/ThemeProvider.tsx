import { createContext, useContext, useLayoutEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { CssBaseline, ThemeProvider as MuiThemeProvider, createTheme } from '@mui/material';
import { useHydrated } from '../hydration/useHydrated.js';
import { DARK_QUERY, systemPrefersDark, useThemeStore, type ResolvedTheme, type ThemePreference } from './theme-store.js';

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

export function buildTheme(mode: ResolvedTheme) {
  return createTheme({
    palette: {
      mode,
      primary: { main: mode === 'dark' ? '#60a5fa' : '#1d4ed8' },
      success: { main: mode === 'dark' ? '#4ade80' : '#15803d' },
      error: { main: mode === 'dark' ? '#f87171' : '#b91c1c' },
      // Chips and badges (Updated, Featured) carry text on these colours: dark enough for white text in light mode,
      // light enough for dark text in dark mode (WCAG AA 4.5:1 either way).
      info: { main: mode === 'dark' ? '#38bdf8' : '#0369a1' },
      warning: { main: mode === 'dark' ? '#fbbf24' : '#b45309' },
      background: mode === 'dark' ? { default: '#0b1120', paper: '#111827' } : { default: '#f8fafc', paper: '#ffffff' },
    },
    shape: { borderRadius: 8 },
    typography: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif' },
    components: { MuiButton: { defaultProps: { disableElevation: true }, styleOverrides: { root: { textTransform: 'none' } } } },
  });
}

/** Applies the theme choice: a `light`/`dark` class on <html> and the MUI theme. */
export function RadarThemeProvider({ children }: { children: ReactNode }) {
  const preference = useThemeStore((s) => s.preference);
  const setPreference = useThemeStore((s) => s.setPreference);
  const systemDark = useSystemDark();
  // A server render is light: it knows neither the stored choice nor the system's. Its hydration is light too, to the
  // last part (useHydrated); a dark page renders right after.
  const hydrated = useHydrated();
  const resolved: ResolvedTheme = !hydrated ? 'light' : preference === 'system' ? (systemDark ? 'dark' : 'light') : preference;

  useLayoutEffect(() => {
    const root = document.documentElement;
    root.classList.remove('light', 'dark');
    root.classList.add(resolved);
    root.style.colorScheme = resolved;
  }, [resolved]);

  const theme = useMemo(() => buildTheme(resolved), [resolved]);
  const value = useMemo(() => ({ preference, resolved, setPreference }), [preference, resolved, setPreference]);
  return (
    <ThemeContext.Provider value={value}>
      <MuiThemeProvider theme={theme}>
        <CssBaseline />
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
