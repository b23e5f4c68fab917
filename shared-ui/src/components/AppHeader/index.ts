export { AppHeader, type AppHeaderProps, type HeaderAction, type HeaderExportAction } from './AppHeader.js';
export { MAIN_NAV_LINKS } from './nav-links.js';
