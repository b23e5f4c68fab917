import type { Configuration } from 'webpack';

export declare const sharedSingletons: Record<string, { singleton: true; requiredVersion: string }>;
export declare const REMOTE_NAMES: { dashboard: 'radar_dashboard'; admin: 'radar_admin'; digest: 'radar_digest' };
export declare const HOST_NAME: 'radar_shell';
export declare const DEV_PORTS: { shell: 3000; dashboard: 3001; admin: 3002; digest: 3003 };
export interface AppConfigOptions {
  dirname: string;
  app: 'shell' | 'dashboard' | 'admin' | 'digest';
  title: string;
  /** The shell: CSS emitted as a static `theme.<hash>.css` the page links in <head> (the theme's variables). */
  themeStylesheet?: string;
  devMiddleware?: (app: { get: (path: string, handler: (req: unknown, res: { json: (body: unknown) => void }) => void) => void }) => void;
}
export declare function createAppConfig(options: AppConfigOptions): (env: unknown, argv: { mode?: string }) => Configuration;
export declare function devRuntimeConfig(): {
  remotes: { dashboard: string; admin: string; digest: string };
  supportEmail: string;
  sisterProductUrl: string;
  sisterProductName: string;
  isDemoData: boolean;
};
export interface ServerRenderConfigOptions {
  dirname: string;
  /** Remote name → the app folder whose ./App the server render bundles. */
  remotes: Record<string, string>;
}
export declare function createServerRenderConfig(options: ServerRenderConfigOptions): (env: unknown, argv: { mode?: string }) => Configuration;
