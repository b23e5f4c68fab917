import { Link, Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { ChipList, displayTags, formatDate, ItemStatusBadge } from '@radar/shared-ui';
import type { DigestReport, DigestReportItem } from '@radar/contracts';

function Section({ title, count, children }: { title: string; count: number; children: React.ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-label={title}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
        {title} ({count})
      </Typography>
      {count === 0 ? <Typography color="text.secondary">None in this timeframe.</Typography> : children}
    </Paper>
  );
}

const ItemLink = ({ item }: { item: DigestReportItem }) => (
  <Link href={item.link} target="_blank" rel="noopener noreferrer">
    {item.itemId ?? item.messageId}
  </Link>
);

function RoadmapTable({ title, items }: { title: string; items: DigestReportItem[] }) {
  return (
    <Section title={title} count={items.length}>
      <TableContainer>
        <Table size="small" aria-label={title}>
          <TableHead>
            <TableRow>
              <TableCell>ID</TableCell>
              <TableCell>Title</TableCell>
              <TableCell>Product</TableCell>
              <TableCell>Status</TableCell>
              <TableCell>Modified</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {items.map((item) => (
              <TableRow key={item.itemId ?? item.title}>
                <TableCell>
                  <ItemLink item={item} />
                </TableCell>
                <TableCell>{item.title}</TableCell>
                <TableCell>
                  <ChipList values={item.products} noun="products" emptyText="—" />
                </TableCell>
                <TableCell>
                  <ItemStatusBadge status={item.status} />
                </TableCell>
                <TableCell>{formatDate(item.modifiedDate ?? item.createdDate)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Section>
  );
}

function MessageTable({ title, items }: { title: string; items: DigestReportItem[] }) {
  return (
    <Section title={title} count={items.length}>
      <TableContainer>
        <Table size="small" aria-label={title}>
          <TableHead>
            <TableRow>
              <TableCell>ID</TableCell>
              <TableCell>Title</TableCell>
              <TableCell>Services</TableCell>
              <TableCell>Tags</TableCell>
              <TableCell>Last updated</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {items.map((item) => (
              <TableRow key={item.messageId ?? item.title}>
                <TableCell>
                  <ItemLink item={item} />
                </TableCell>
                <TableCell>{item.title}</TableCell>
                <TableCell>
                  <ChipList values={item.products} noun="products" emptyText="—" />
                </TableCell>
                <TableCell>
                  <ChipList values={displayTags(item).all} noun="tags" emptyText="—" />
                </TableCell>
                <TableCell>{formatDate(item.lastUpdatedDate ?? item.publishedDate)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Section>
  );
}

/** The four lists of a digest report as tables. */
export function DigestTables({ report }: { report: DigestReport }) {
  return (
    <>
      <RoadmapTable title="New Roadmap Items" items={report.roadmap.newItems} />
      <RoadmapTable title="Updated Roadmap Items" items={report.roadmap.changedItems} />
      <MessageTable title="New Message Center Items" items={report.messageCenter.newItems} />
      <MessageTable title="Updated Message Center Items" items={report.messageCenter.updatedItems} />
    </>
  );
}
