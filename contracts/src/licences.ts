/**
 * Which products a tenant licenses, read from its service plans (Graph `subscribedSkus`: each subscription's
 * `servicePlans[].servicePlanName`), as the product names the roadmap and Message Center use. The table is ours to
 * keep: Microsoft documents the plan names ("Product names and service plan identifiers for licensing"); a plan that
 * matches no rule licenses nothing here, and a product no rule names is "unknown", never "not licensed".
 */
export interface LicencePlanRule {
  /** Service plan names this rule covers: exact names, or a prefix ending in `*`. */
  plans: readonly string[];
  /** The product names, as the feeds spell them, that the plans license. */
  products: readonly string[];
}

export const LICENCE_PLAN_RULES: readonly LicencePlanRule[] = [
  { plans: ['TEAMS1', 'TEAMS_*', 'MCOSTANDARD', 'MCOEV*', 'MCOMEETADV', 'MCOPSTN*'], products: ['Microsoft Teams'] },
  {
    plans: [
      'EXCHANGE_S_STANDARD',
      'EXCHANGE_S_ENTERPRISE',
      'EXCHANGE_S_DESKLESS',
      'EXCHANGE_S_ESSENTIALS',
      'EXCHANGE_S_STANDARD_GOV',
      'EXCHANGE_S_ENTERPRISE_GOV',
    ],
    products: ['Exchange Online', 'Exchange', 'Outlook'],
  },
  {
    plans: ['SHAREPOINTSTANDARD', 'SHAREPOINTENTERPRISE', 'SHAREPOINTDESKLESS', 'SHAREPOINTSTANDARD_*', 'SHAREPOINTENTERPRISE_*'],
    products: ['SharePoint', 'SharePoint Online', 'OneDrive', 'Microsoft OneDrive', 'Microsoft Search'],
  },
  { plans: ['ONEDRIVE_BASIC', 'ONEDRIVESTANDARD', 'ONEDRIVEENTERPRISE'], products: ['OneDrive', 'Microsoft OneDrive'] },
  { plans: ['SHAREPOINTWAC', 'SHAREPOINTWAC_*'], products: ['Microsoft 365 for the web', 'Word', 'Excel', 'PowerPoint', 'OneNote'] },
  {
    plans: ['OFFICESUBSCRIPTION', 'OFFICESUBSCRIPTION_*', 'OFFICE_BUSINESS', 'OFFICEMOBILE_SUBSCRIPTION'],
    products: ['Microsoft 365 apps', 'Microsoft 365 app', 'Word', 'Excel', 'PowerPoint', 'OneNote', 'Outlook', 'Access'],
  },
  { plans: ['PROJECTWORKMANAGEMENT', 'PROJECT_O365_*'], products: ['Planner'] },
  {
    plans: ['PROJECT_CLIENT_SUBSCRIPTION', 'PROJECT_PROFESSIONAL', 'PROJECT_ESSENTIALS', 'SHAREPOINT_PROJECT'],
    products: ['Project Online', 'Microsoft Project', 'Planner'],
  },
  { plans: ['FORMS_PLAN_*'], products: ['Forms', 'Microsoft Forms'] },
  { plans: ['STREAM_O365_*', 'STREAM_P2', 'STREAM_P1'], products: ['Microsoft Stream'] },
  { plans: ['SWAY'], products: ['Sway'] },
  {
    plans: ['YAMMER_ENTERPRISE', 'YAMMER_EDU', 'VIVAENGAGE_*', 'VIVA_*', 'MYANALYTICS_P2', 'WORKPLACE_ANALYTICS*', 'INSIGHTS_BY_MYANALYTICS'],
    products: ['Microsoft Viva'],
  },
  { plans: ['BPOS_S_TODO_*'], products: ['Microsoft To Do'] },
  { plans: ['WHITEBOARD_PLAN*'], products: ['Whiteboard'] },
  { plans: ['MICROSOFTBOOKINGS'], products: ['Bookings', 'Microsoft Bookings'] },
  { plans: ['CLIPCHAMP', 'CLIPCHAMP_*'], products: ['Microsoft Clipchamp'] },
  { plans: ['INTUNE_A', 'INTUNE_A_*', 'INTUNE_EDU', 'INTUNE_P2', 'INTUNE_SUITE*'], products: ['Microsoft Intune'] },
  { plans: ['INTUNE_O365'], products: ['Basic Mobility and Security'] },
  { plans: ['AAD_PREMIUM', 'AAD_PREMIUM_P2', 'AAD_BASIC', 'AAD_GOVERNANCE*', 'ENTRA_*'], products: ['Microsoft Entra'] },
  { plans: ['ATP_ENTERPRISE', 'THREAT_INTELLIGENCE'], products: ['Microsoft Defender for Office 365', 'Microsoft Defender XDR', 'Microsoft 365 Defender'] },
  { plans: ['MTP', 'WINDEFATP', 'MDE_LITE', 'ADALLOM_S_STANDALONE', 'ATA'], products: ['Microsoft Defender XDR', 'Microsoft 365 Defender'] },
  {
    plans: [
      'RMS_S_ENTERPRISE',
      'RMS_S_PREMIUM*',
      'MIP_S_*',
      'INFORMATION_BARRIERS',
      'LOCKBOX_ENTERPRISE',
      'EQUIVIO_ANALYTICS',
      'COMMUNICATIONS_DLP',
      'COMMUNICATIONS_COMPLIANCE',
      'M365_ADVANCED_AUDITING',
      'RECORDS_MANAGEMENT',
      'INSIDER_RISK*',
      'CUSTOMER_KEY',
      'DATA_INVESTIGATIONS',
      'PURVIEW_*',
    ],
    products: ['Microsoft Purview', 'Microsoft Information Protection'],
  },
  { plans: ['BI_AZURE_P0', 'BI_AZURE_P1', 'BI_AZURE_P2', 'BI_AZURE_P3', 'PBI_PREMIUM_*'], products: ['Power BI'] },
  { plans: ['POWERAPPS_O365_*', 'POWERAPPS_P*', 'POWERAPPS_PER_*'], products: ['Power Apps', 'Power Apps in Microsoft 365', 'Power Platform'] },
  { plans: ['FLOW_O365_*', 'FLOW_P*', 'FLOW_PER_*'], products: ['Microsoft Power Automate', 'Microsoft Power Automate in Microsoft 365', 'Power Platform'] },
  { plans: ['DYN365_CDS_*', 'CDS_*'], products: ['Microsoft Dataverse'] },
  {
    plans: ['M365_COPILOT*', 'MICROSOFT_365_COPILOT*', 'COPILOT_STUDIO_IN_COPILOT_FOR_M365', 'GRAPH_CONNECTORS_COPILOT', 'Microsoft_Copilot_*'],
    products: ['Microsoft Copilot (Microsoft 365)'],
  },
  { plans: ['WIN10_PRO_ENT_SUB', 'WIN10_VDA_E3', 'WIN10_VDA_E5', 'WIN10_ENT_LOC_F1', 'WINDOWS_STORE', 'WIN_ENT_E5'], products: ['Windows'] },
  { plans: ['WINDOWSUPDATEFORBUSINESS_DEPLOYMENTSERVICE', 'WINDOWS_AUTOPATCH'], products: ['Windows Autopatch', 'Windows'] },
  { plans: ['UNIVERSAL_PRINT*'], products: ['Universal Print'] },
  { plans: ['CPC_*'], products: ['Windows 365'] },
  { plans: ['DYN365_*', 'D365_*', 'DYNAMICS_365_*'], products: ['Dynamics 365 Apps', 'Finance and Operations Apps'] },
  { plans: ['MINECRAFT_EDUCATION_EDITION'], products: ['Minecraft Education'] },
];

/** Products every Microsoft 365 tenant has, whatever it licenses: never filtered out. */
export const ALWAYS_LICENSED_PRODUCTS = [
  'Microsoft 365',
  'Microsoft 365 suite',
  'Microsoft 365 admin center',
  'Microsoft 365 Admin Center',
  'Microsoft 365 Copilot Chat',
  'Microsoft Edge',
  'Microsoft Graph',
  'Office 365',
] as const;

/** Every product name the rules can say something about (a product outside it is "unknown"). */
export const LICENCE_KNOWN_PRODUCTS: readonly string[] = [...new Set([...LICENCE_PLAN_RULES.flatMap((r) => r.products), ...ALWAYS_LICENSED_PRODUCTS])].sort();

const matches = (pattern: string, plan: string) => (pattern.endsWith('*') ? plan.startsWith(pattern.slice(0, -1)) : plan === pattern);

/** The licence table's plans for a product ([] when no rule names it). */
export function rulePlansOf(product: string): string[] {
  return LICENCE_PLAN_RULES.filter((r) => r.products.includes(product)).flatMap((r) => [...r.plans]);
}

/**
 * The products a set of enabled service plans licenses (sorted, once each). `overrides`: an admin's plans for a
 * product, which replace the table's for that product.
 */
export function licensedProductsOf(planNames: readonly string[], overrides: ReadonlyMap<string, readonly string[]> = new Map()): string[] {
  const out = new Set<string>();
  const has = (patterns: readonly string[]) => planNames.some((plan) => patterns.some((pattern) => matches(pattern, plan)));
  for (const [product, plans] of overrides) if (has(plans)) out.add(product);
  for (const rule of LICENCE_PLAN_RULES) {
    const products = rule.products.filter((p) => !overrides.has(p));
    if (products.length && has(rule.plans)) for (const p of products) out.add(p);
  }
  return [...out].sort();
}

/**
 * The licence status of an item's products against tenants' licensed products: licensed when a product is licensed by
 * one of them (or is one every tenant has), unknown when a product is one no rule (nor `alsoKnown`, the admins'
 * overrides) knows, else not licensed; not read when no tenant's licences are known.
 */
export function licenceStatusOf(
  products: readonly string[],
  tenants: readonly { name: string; products: readonly string[] | null }[],
  alsoKnown: Iterable<string> = [],
): { status: 'licensed' | 'not_licensed' | 'unknown' | 'not_read'; tenants: string[]; unknownProducts: string[] } {
  const known = new Set([...LICENCE_KNOWN_PRODUCTS, ...alsoKnown]);
  const always = new Set<string>(ALWAYS_LICENSED_PRODUCTS);
  const unknownProducts = products.filter((p) => !known.has(p));
  const read = tenants.filter((t) => t.products !== null);
  const by = read.filter((t) => products.some((p) => always.has(p) || (t.products ?? []).includes(p))).map((t) => t.name);
  if (by.length) return { status: 'licensed', tenants: by, unknownProducts };
  if (products.length === 0 || unknownProducts.length) return { status: 'unknown', tenants: [], unknownProducts };
  if (read.length === 0) return { status: 'not_read', tenants: [], unknownProducts };
  return { status: 'not_licensed', tenants: [], unknownProducts };
}
