// This build's version (package.json version + git commit), written in by its build (build-config/federation.cjs).
declare const __RADAR_APP_VERSION__: string | undefined;

/** Shown on the admin page, so whoever ships a new build can see which one a browser runs. */
export const ADMIN_APP_VERSION = typeof __RADAR_APP_VERSION__ === 'undefined' ? 'development' : __RADAR_APP_VERSION__;
