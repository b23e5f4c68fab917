import { sql, type SQL } from 'drizzle-orm';

const MONTHS = 'january|february|march|april|may|june|july|august|september|october|november|december';

/**
 * The first day of the month a roadmap date names, as SQL (a date, or NULL). Microsoft gives GA and preview dates
 * as "<Month> CY<yyyy>" (docs/ingestion.md; every recorded item does); "<Month> <yyyy>" is read too. Anything else
 * (a quarter, a bare year, "TBD") has no month and is NULL, so it never becomes a calendar event on a made-up day.
 * The month names are matched before to_date sees the text, so an odd value cannot make the query fail.
 */
export function releaseMonthSql(column: SQL): SQL {
  return sql`(CASE WHEN ${column} ~* ${`^\\s*(${MONTHS})\\s+(cy\\s*)?[0-9]{4}\\s*$`}
    THEN to_date(regexp_replace(btrim(${column}), '\\s+(cy\\s*)?', ' ', 'i'), 'FMMonth YYYY') END)`;
}
