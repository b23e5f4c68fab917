export { IncidentDigestTable, MessageDigestTable, RoadmapDigestTable, servicesOf } from './DigestItemTables.js';
export { DigestTable, dashboardLinkOf, type DigestColumn, type DigestTableProps } from './DigestTable.js';
