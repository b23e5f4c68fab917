import { describe, expect, it } from '@jest/globals';
import { productFamiliesOf, productFamilyOf } from './product-families.js';

describe('product families', () => {
  it.each([
    ['Microsoft Teams', 'microsoft365'],
    ['SharePoint Online', 'microsoft365'],
    ['Microsoft Copilot (Microsoft 365)', 'microsoft365'],
    ['Microsoft 365 Copilot Chat', 'microsoft365'],
    ['Windows', 'microsoft365'],
    ['Microsoft Defender XDR', 'microsoft365'],
    ['Dynamics 365 Apps', 'dynamics365'],
    ['Dynamics 365 Sales', 'dynamics365'],
    ['Finance and Operations Apps', 'dynamics365'],
    ['Dynamics 365 Business Central', 'dynamics365'],
    ['Power Platform', 'powerPlatform'],
    ['Power Apps', 'powerPlatform'],
    ['Power Apps in Microsoft 365', 'powerPlatform'],
    ['Microsoft Power Automate in Microsoft 365', 'powerPlatform'],
    ['Microsoft Dataverse', 'powerPlatform'],
    ['Microsoft Copilot (Power Platform)', 'powerPlatform'],
    ['Copilot Studio', 'powerPlatform'],
    ['Power BI', 'powerPlatform'],
    ['Azure Virtual Desktop', 'other'],
  ])('%s → %s', (product, family) => {
    expect(productFamilyOf(product)).toBe(family);
  });

  it('an item is in the family of each of its products; an admin override wins', () => {
    expect(productFamiliesOf(['Power BI', 'Microsoft Teams'])).toEqual(['microsoft365', 'powerPlatform']);
    expect(productFamiliesOf(['Microsoft Teams'], new Map([['Microsoft Teams', 'other']]))).toEqual(['other']);
    expect(productFamiliesOf([])).toEqual([]);
  });
});
