import { createTheme, type PaletteOptions } from '@mui/material';
import type { ResolvedTheme } from './theme-store.js';

/** The attribute of the <link> of the theme's static stylesheet (build-config's federation.cjs writes it). */
export const THEME_STYLESHEET_ATTRIBUTE = 'data-radar-theme';

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

// The theme is written as CSS variables (cssVariables above): MUI's types then offer `theme.vars` and the provider's
// variables props (disableStyleSheetGeneration).
declare module '@mui/material/styles' {
  interface CssThemeVariables {
    enabled: true;
  }
}
