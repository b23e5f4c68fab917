import { customType, timestamp } from 'drizzle-orm/pg-core';

/** Column types drizzle has no builder for, and the one timestamp shape every table uses. */
export const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });
export const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
