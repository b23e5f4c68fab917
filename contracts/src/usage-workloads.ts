/**
 * Which usage workload(s) a Message Center service or a roadmap product depends on, so an item's relevance can be
 * read from the tenant's usage reports (relevance.ts, docs/product/relevance.md). The table is ours to keep, like the
 * licence table: each name the feeds use is either mapped to the workloads whose active users say whether the item
 * touches people, or deliberately unmapped with the reason no usage report can speak for it. A name no rule names is
 * "unknown", never "unmapped": the recorded feeds' names are all here (usage-workloads.test.ts), and a new one in a
 * new snapshot fails the real-data suite until someone decides.
 */

/**
 * The workloads the Graph usage reports measure: the active-user report's services (Exchange, OneDrive, SharePoint,
 * Teams, Viva Engage under its old key `yammer`), the Microsoft 365 apps report as a whole and per app, and Copilot.
 */
export const USAGE_WORKLOADS = [
  'exchange',
  'onedrive',
  'sharepoint',
  'teams',
  'yammer',
  'm365apps',
  'copilot',
  'word',
  'excel',
  'powerpoint',
  'outlook',
  'onenote',
] as const;
export type UsageWorkload = (typeof USAGE_WORKLOADS)[number];

/** How a reason names a workload ("1,240 people used Teams …"). */
export const USAGE_WORKLOAD_LABELS: Readonly<Record<UsageWorkload, string>> = {
  exchange: 'Exchange Online',
  onedrive: 'OneDrive',
  sharepoint: 'SharePoint',
  teams: 'Teams',
  yammer: 'Viva Engage',
  m365apps: 'Microsoft 365 apps',
  copilot: 'Microsoft 365 Copilot',
  word: 'Word',
  excel: 'Excel',
  powerpoint: 'PowerPoint',
  outlook: 'Outlook',
  onenote: 'OneNote',
};

export type UsageMappingRule =
  /** Names (as the feeds spell them; matched ignoring case and spacing) whose items touch the people using these workloads. */
  | { names: readonly string[]; workloads: readonly UsageWorkload[] }
  /** Names no usage report can speak for, and why. */
  | { names: readonly string[]; unmapped: string };

const NO_REPORT_APPS = 'the apps report counts Word, Excel, PowerPoint, Outlook, OneNote and Teams only; no usage report read covers this app';

export const USAGE_MAPPING_RULES: readonly UsageMappingRule[] = [
  { names: ['Microsoft Teams', 'Teams'], workloads: ['teams'] },
  { names: ['Exchange Online', 'Exchange'], workloads: ['exchange'] },
  // Outlook is the mail client of Exchange: its own users (apps report) or, when higher, everyone with mail activity.
  { names: ['Outlook'], workloads: ['outlook', 'exchange'] },
  // Syntex (SharePoint Premium) works on SharePoint content: nobody using SharePoint means nothing for it to touch.
  { names: ['SharePoint Online', 'SharePoint', 'SharePoint Syntex', 'SharePoint Premium'], workloads: ['sharepoint'] },
  { names: ['Microsoft OneDrive', 'OneDrive'], workloads: ['onedrive'] },
  // "Microsoft 365 app" (the roadmap's name for the Microsoft 365 Copilot app, the apps' home) is measured by the apps'
  // own usage, the nearest report; the apps report counts the web apps too.
  { names: ['Microsoft 365 apps', 'Microsoft 365 app', 'Microsoft 365 for the web'], workloads: ['m365apps'] },
  { names: ['Word'], workloads: ['word'] },
  { names: ['Excel'], workloads: ['excel'] },
  { names: ['PowerPoint'], workloads: ['powerpoint'] },
  { names: ['OneNote'], workloads: ['onenote'] },
  { names: ['Microsoft Copilot (Microsoft 365)', 'Microsoft 365 Copilot'], workloads: ['copilot'] },
  { names: ['Viva Engage', 'Microsoft Viva Engage', 'Yammer'], workloads: ['yammer'] },

  {
    names: ['Microsoft Viva'],
    unmapped:
      'a family of apps (Engage, Insights, Learning, Glint, Connections, Pulse, Amplify…) and the name does not say which; only Viva Engage has a usage report',
  },
  {
    names: ['Microsoft 365 Copilot Chat'],
    unmapped: 'every user with a work account has it; the Copilot usage report counts Microsoft 365 Copilot licence holders only',
  },
  { names: ['Microsoft 365', 'Microsoft 365 suite', 'Office 365'], unmapped: 'the suite as a whole; no one usage report stands for it' },
  { names: ['Microsoft 365 admin center'], unmapped: 'admin-facing: used by admins, and no usage report measures it' },
  { names: ['Microsoft Entra'], unmapped: 'identity: every user signs in with it, and no usage report measures it' },
  { names: ['Microsoft Intune', 'Basic Mobility and Security'], unmapped: 'device management, admin-facing; no usage report measures it' },
  {
    names: ['Microsoft Purview', 'Microsoft Information Protection'],
    unmapped: 'compliance, admin-facing: it applies to content and mailboxes, and no usage report measures it',
  },
  {
    names: ['Microsoft Defender XDR', 'Microsoft 365 Defender', 'Microsoft Defender for Office 365'],
    unmapped: 'security, admin-facing; no usage report measures it',
  },
  {
    names: [
      'Power Platform',
      'Power Apps',
      'Power Apps in Microsoft 365',
      'Microsoft Power Automate',
      'Microsoft Power Automate in Microsoft 365',
      'Power BI',
      'Microsoft Dataverse',
      'Microsoft Copilot (Power Platform)',
    ],
    unmapped: 'Power Platform: no Microsoft 365 usage report covers it',
  },
  { names: ['Dynamics 365 Apps', 'Finance and Operations Apps'], unmapped: 'Dynamics 365: no Microsoft 365 usage report covers it' },
  { names: ['Windows', 'Windows 365', 'Windows Autopatch', 'Universal Print'], unmapped: 'Windows and devices: no Microsoft 365 usage report covers it' },
  { names: ['Teams and Surface Devices'], unmapped: 'meeting-room and Surface Hub devices: the Teams report counts people, not devices' },
  { names: ['Microsoft Edge'], unmapped: 'the browser: no Microsoft 365 usage report covers it' },
  { names: ['Microsoft Graph'], unmapped: 'the developer API: no usage report measures it' },
  { names: ['Microsoft Search'], unmapped: 'search across Microsoft 365: no usage report measures it' },
  { names: ['Planner', 'Microsoft Project', 'Project Online', 'Microsoft To Do'], unmapped: 'no usage report read covers planning and tasks' },
  {
    names: ['Forms', 'Microsoft Forms', 'Bookings', 'Microsoft Bookings', 'Sway', 'Whiteboard', 'Microsoft Stream', 'Microsoft Clipchamp', 'Access'],
    unmapped: NO_REPORT_APPS,
  },
  { names: ['Minecraft Education'], unmapped: 'an education app: no Microsoft 365 usage report covers it' },
];

export type UsageMapping = { kind: 'mapped'; workloads: UsageWorkload[] } | { kind: 'unmapped'; reason: string } | { kind: 'unknown' };

/** The key a name is matched by: case, surrounding and doubled spaces (NBSP too) do not count. */
export const usageNameKey = (name: string) => name.replace(/\s+/g, ' ').trim().toLocaleLowerCase('en-US');

const BY_NAME = new Map<string, UsageMappingRule>();
for (const rule of USAGE_MAPPING_RULES) {
  for (const name of rule.names) {
    // A name in two rules is a mistake the tests catch; the first rule wins meanwhile.
    const key = usageNameKey(name);
    if (!BY_NAME.has(key)) BY_NAME.set(key, rule);
  }
}

/** Every name the table says something about, mapped or deliberately unmapped, as the table spells it. */
export const USAGE_KNOWN_NAMES: readonly string[] = USAGE_MAPPING_RULES.flatMap((r) => r.names);

/** What the table says about one service or product name. */
export function usageMappingOf(name: string): UsageMapping {
  const rule = BY_NAME.get(usageNameKey(name));
  if (!rule) return { kind: 'unknown' };
  return 'workloads' in rule ? { kind: 'mapped', workloads: [...rule.workloads] } : { kind: 'unmapped', reason: rule.unmapped };
}

/** The workloads an item's services or products depend on, once each, in USAGE_WORKLOADS order ([] when none maps). */
export function workloadsOf(names: readonly string[]): UsageWorkload[] {
  const out = new Set<UsageWorkload>();
  for (const name of names) {
    const mapping = usageMappingOf(name);
    if (mapping.kind === 'mapped') for (const w of mapping.workloads) out.add(w);
  }
  return USAGE_WORKLOADS.filter((w) => out.has(w));
}
