import { describe, expect, it } from '@jest/globals';
import { ALWAYS_LICENSED_PRODUCTS, LICENCE_KNOWN_PRODUCTS, licenceStatusOf, licensedProductsOf } from './licences.js';

describe('licences', () => {
  it('reads service plans as the products the feeds name, by exact name or prefix', () => {
    expect(licensedProductsOf(['TEAMS1', 'EXCHANGE_S_ENTERPRISE'])).toEqual(['Exchange', 'Exchange Online', 'Microsoft Teams', 'Outlook']);
    expect(licensedProductsOf(['FORMS_PLAN_E5'])).toEqual(['Forms', 'Microsoft Forms']);
    expect(licensedProductsOf(['M365_COPILOT_APPS'])).toEqual(['Microsoft Copilot (Microsoft 365)']);
    expect(licensedProductsOf(['EXCHANGE_S_FOUNDATION', 'SOMETHING_NEW'])).toEqual([]);
  });

  it('knows every product a rule names and those every tenant has', () => {
    expect(LICENCE_KNOWN_PRODUCTS).toContain('Microsoft Intune');
    for (const p of ALWAYS_LICENSED_PRODUCTS) expect(LICENCE_KNOWN_PRODUCTS).toContain(p);
    expect(LICENCE_KNOWN_PRODUCTS).not.toContain('Windows Server');
  });
});

describe('an item’s licence status', () => {
  const tenants = [
    { name: 'Contoso', products: ['Microsoft Teams'] },
    { name: 'Fabrikam', products: null },
  ];
  it('says who licenses it, not licensed, unknown or not read', () => {
    expect(licenceStatusOf(['Microsoft Teams'], tenants)).toEqual({ status: 'licensed', tenants: ['Contoso'], unknownProducts: [] });
    expect(licenceStatusOf(['Microsoft Edge'], tenants)).toMatchObject({ status: 'licensed', tenants: ['Contoso'] });
    expect(licenceStatusOf(['Microsoft Intune'], tenants)).toMatchObject({ status: 'not_licensed' });
    expect(licenceStatusOf(['Contoso Widgets'], tenants)).toEqual({ status: 'unknown', tenants: [], unknownProducts: ['Contoso Widgets'] });
    expect(licenceStatusOf(['Microsoft Intune'], [{ name: 'Fabrikam', products: null }])).toMatchObject({ status: 'not_read' });
  });
});
