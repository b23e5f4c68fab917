import type { TriageLicence } from '@radar/contracts';

/** Whether the tenants license the item, in words ("unknown" said as such, never taken for "not licensed"). */
export function licenceText(licence: TriageLicence): string {
  switch (licence.status) {
    case 'licensed':
      return `Licensed: ${licence.tenants.join(', ')}`;
    case 'not_licensed':
      return 'Not licensed by your tenants';
    case 'unknown':
      return licence.unknownProducts.length
        ? `Licence unknown: no licence rule knows ${licence.unknownProducts.join(', ')}`
        : 'Licence unknown: the item names no product';
    case 'not_read':
      return 'Licence not known: no tenant’s licences were read';
  }
}
