import { PRODUCT_FAMILIES, type ProductFamily } from './constants.js';

/**
 * Which family a product (a roadmap product or a Message Center service) is in, by its name. The rules read the names
 * the feeds use: Dynamics 365 apps (and the Finance and Operations, Business Central, Customer Insights… apps sold
 * under it), Power Platform (Power Apps, Power Automate, Power BI, Power Pages, Copilot Studio, AI Builder, Dataverse,
 * the Power Platform admin tools), and Microsoft 365 (Office apps, Teams, SharePoint, Exchange, the security and
 * management products sold with it, Windows and Copilot for Microsoft 365). Anything else is `other`, said honestly
 * rather than guessed. An admin overrides a product's family on the Products tab; the override wins.
 */
const RULES: [ProductFamily, RegExp][] = [
  // "Power Apps in Microsoft 365" and "Microsoft Power Automate in Microsoft 365" are the Power Platform apps.
  [
    'powerPlatform',
    /\b(power ?(apps|automate|bi|pages|platform|virtual agents|fx|query)|dataverse|copilot studio|ai builder|process advisor|copilot \(power platform\))\b/i,
  ],
  [
    'dynamics365',
    /\b(dynamics( 365)?|finance and operations|business central|customer (insights|service|voice)|field service|contact center|supply chain|commerce|project operations|human resources|guides|remote assist|sales( insights)?|marketing|intelligent order management)\b/i,
  ],
  [
    'microsoft365',
    /\b(microsoft 365|office( 365)?|teams|sharepoint|exchange|outlook|onedrive|word|excel|powerpoint|onenote|visio|project|planner|to do|forms|bookings|loop|lists|stream|sway|whiteboard|clipchamp|yammer|viva|copilot|purview|defender|entra|intune|windows|autopatch|edge|universal print|syntex|search|graph|admin center|information protection|basic mobility|access|publisher|kaizala|minecraft|surface|skype|delve|to-do|places|mesh)\b/i,
  ],
];

export function productFamilyOf(product: string): ProductFamily {
  for (const [family, rule] of RULES) if (rule.test(product)) return family;
  return 'other';
}

/** The families of an item's products, in PRODUCT_FAMILIES order; `overrides` maps a product name to an admin's choice. */
export function productFamiliesOf(products: readonly string[], overrides: ReadonlyMap<string, ProductFamily> = new Map()): ProductFamily[] {
  const families = new Set(products.map((p) => overrides.get(p) ?? productFamilyOf(p)));
  return PRODUCT_FAMILIES.filter((f) => families.has(f));
}
