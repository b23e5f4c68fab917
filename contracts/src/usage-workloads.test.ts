import { describe, expect, it } from '@jest/globals';
import { LICENCE_KNOWN_PRODUCTS } from './licences.js';
import { USAGE_KNOWN_NAMES, USAGE_MAPPING_RULES, USAGE_WORKLOADS, usageMappingOf, usageNameKey, workloadsOf } from './usage-workloads.js';
// The names in the recorded feeds, written by contracts/scripts/gen-usage-names.ts; the real-data suite
// (api/test/real-data/usage-names.test.ts) fails when a recording holds a name this list lacks.
import { FEED_PRODUCT_NAMES, FEED_SERVICE_NAMES } from './usage-workloads.names.js';

describe('usage mapping', () => {
  it.each([
    ['Microsoft Teams', ['teams']],
    ['Exchange Online', ['exchange']],
    ['Exchange', ['exchange']],
    ['Outlook', ['exchange', 'outlook']],
    ['SharePoint Online', ['sharepoint']],
    ['SharePoint', ['sharepoint']],
    ['Microsoft OneDrive', ['onedrive']],
    ['OneDrive', ['onedrive']],
    ['Microsoft 365 apps', ['m365apps']],
    ['Microsoft 365 for the web', ['m365apps']],
    ['Word', ['word']],
    ['Excel', ['excel']],
    ['PowerPoint', ['powerpoint']],
    ['OneNote', ['onenote']],
    ['Microsoft Copilot (Microsoft 365)', ['copilot']],
    ['Viva Engage', ['yammer']],
  ])('%s → %j', (name, workloads) => {
    expect(workloadsOf([name])).toEqual(workloads);
  });

  it('matches names ignoring case and spacing, as the feeds vary them', () => {
    expect(usageMappingOf('microsoft teams')).toEqual({ kind: 'mapped', workloads: ['teams'] });
    expect(usageMappingOf(' Microsoft\u00a0Clipchamp ')).toMatchObject({ kind: 'unmapped' });
    expect(usageMappingOf('Microsoft 365 Admin Center')).toEqual(usageMappingOf('Microsoft 365 admin center'));
  });

  it('says why a name is deliberately unmapped, and unknown for a name it has never seen', () => {
    expect(usageMappingOf('Microsoft Entra')).toEqual({ kind: 'unmapped', reason: 'identity: every user signs in with it, and no usage report measures it' });
    expect(usageMappingOf('Microsoft Intune')).toEqual({ kind: 'unmapped', reason: 'device management, admin-facing; no usage report measures it' });
    expect(usageMappingOf('Power Platform')).toEqual({ kind: 'unmapped', reason: 'Power Platform: no Microsoft 365 usage report covers it' });
    expect(usageMappingOf('Contoso Widgets')).toEqual({ kind: 'unknown' });
  });

  it('gives an item’s workloads once each, in the workloads’ order, ignoring unmapped and unknown names', () => {
    expect(workloadsOf(['Outlook', 'Microsoft Teams', 'Exchange Online', 'Microsoft Entra', 'Contoso Widgets'])).toEqual(['exchange', 'teams', 'outlook']);
    expect(workloadsOf(['Microsoft Entra', 'Microsoft Intune'])).toEqual([]);
    expect(workloadsOf([])).toEqual([]);
  });

  it('names each name in one rule only, with at least one workload or a reason', () => {
    const keys = USAGE_KNOWN_NAMES.map(usageNameKey);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
    for (const rule of USAGE_MAPPING_RULES) {
      if ('workloads' in rule) {
        expect(rule.workloads.length).toBeGreaterThan(0);
        for (const w of rule.workloads) expect(USAGE_WORKLOADS).toContain(w);
      } else expect(rule.unmapped.length).toBeGreaterThan(0);
    }
  });

  it('maps every workload from some name', () => {
    expect(USAGE_WORKLOADS.filter((w) => !USAGE_MAPPING_RULES.some((r) => 'workloads' in r && r.workloads.includes(w)))).toEqual([]);
  });

  it('knows every service and product name in the recorded feeds, and every name the licence table knows', () => {
    expect(FEED_SERVICE_NAMES.length).toBeGreaterThan(30);
    expect(FEED_PRODUCT_NAMES.length).toBeGreaterThan(30);
    const unknown = [...FEED_SERVICE_NAMES, ...FEED_PRODUCT_NAMES, ...LICENCE_KNOWN_PRODUCTS].filter((n) => usageMappingOf(n).kind === 'unknown');
    expect(unknown).toEqual([]);
  });

  // Deliberately unmapped: items about these read Unknown. Adding a name here is a decision, so it shows in review.
  it('leaves exactly these feed names unmapped', () => {
    const unmapped = [...new Set([...FEED_SERVICE_NAMES, ...FEED_PRODUCT_NAMES])].filter((n) => usageMappingOf(n).kind === 'unmapped').sort();
    expect(unmapped).toEqual([
      'Access',
      'Basic Mobility and Security',
      'Bookings',
      'Dynamics 365 Apps',
      'Finance and Operations Apps',
      'Forms',
      'Microsoft 365',
      'Microsoft 365 Admin Center',
      'Microsoft 365 Copilot Chat',
      'Microsoft 365 Defender',
      'Microsoft 365 admin center',
      'Microsoft 365 suite',
      'Microsoft Bookings',
      'Microsoft Clipchamp',
      'Microsoft Copilot (Power Platform)',
      'Microsoft Dataverse',
      'Microsoft Defender XDR',
      'Microsoft Defender for Office 365',
      'Microsoft Edge',
      'Microsoft Entra',
      'Microsoft Forms',
      'Microsoft Graph',
      'Microsoft Information Protection',
      'Microsoft Intune',
      'Microsoft Power Automate',
      'Microsoft Power Automate in Microsoft 365',
      'Microsoft Project',
      'Microsoft Purview',
      'Microsoft Search',
      'Microsoft Stream',
      'Microsoft To Do',
      'Microsoft Viva',
      'Minecraft Education',
      'Office 365',
      'Planner',
      'Power Apps',
      'Power Apps in Microsoft 365',
      'Power BI',
      'Power Platform',
      'Project Online',
      'Sway',
      'Universal Print',
      'Whiteboard',
      'Windows',
      'Windows 365',
      'Windows Autopatch',
    ]);
  });
});
