/** The three main links of the header and the mobile drawer. */
export const MAIN_NAV_LINKS = [
  { label: 'Dashboard', to: '/dashboard' },
  { label: 'Weekly Digest', to: '/weekly-digest' },
  { label: 'About Us', to: '/contact' },
] as const;
