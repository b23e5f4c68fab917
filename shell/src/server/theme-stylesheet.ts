import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import createEmotionServer from '@emotion/server/create-instance';
import { ThemeProvider } from '@mui/material';
import { buildTheme } from '@radar/shared-ui/theme';

/**
 * The theme's CSS variables for both modes (`:root`, `.light`, `.dark`), as the MUI provider would write them into
 * the page: rendered once at build time (webpack.config.ts) into the shell's static `theme.<hash>.css`, which every
 * shell page links (shared-ui's RadarThemeProvider then writes none). Rendered by the same provider and emotion as the
 * page, so the rules are exactly those the provider would have written.
 */
export function themeStyleSheet(): string {
  const cache = createCache({ key: 'css' });
  const server = createEmotionServer(cache);
  const html = renderToString(
    createElement(
      CacheProvider,
      { value: cache },
      createElement(ThemeProvider, { theme: buildTheme(), defaultMode: 'system', disableStyleSheetGeneration: false }),
    ),
  );
  const css = server
    .extractCriticalToChunks(html)
    .styles.map((style) => style.css)
    .join('');
  if (!css.includes('--mui-palette-primary-main')) throw new Error('the theme stylesheet has no palette variables');
  return css;
}
