/**
 * @jest-environment node
 * @jest-environment-options {"customExportConditions": ["node", "node-addons"]}
 */
import { describe, expect, it } from '@jest/globals';
import { themeStyleSheet } from './theme-stylesheet.js';

describe("the theme's static stylesheet", () => {
  const css = themeStyleSheet();

  it("holds both modes' variables, chosen by the class on <html>", () => {
    expect(css).toMatch(/:root\{[^}]*--mui-shadows-1:/);
    expect(css).toMatch(/:root, ?\.light\{[^}]*--mui-palette-primary-main:#1d4ed8;/);
    expect(css).toMatch(/\.dark\{[^}]*--mui-palette-primary-main:#60a5fa;[^}]*--mui-palette-background-default:#0b1120;/);
  });

  it('is the same for every build of the same theme (its file name is its hash)', () => {
    expect(themeStyleSheet()).toBe(css);
  });
});
