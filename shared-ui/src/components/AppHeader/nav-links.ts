/** The three main links of the header and the mobile drawer (spec 01 §2). */
export const MAIN_NAV_LINKS = [
  { label: 'Dashboard', to: '/dashboard' },
  { label: 'Weekly Digest', to: '/weekly-digest' },
  { label: 'About Us', to: '/contact' },
] as const;
