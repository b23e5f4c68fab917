import { Paper, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { ANALYTICS_TOP_PRODUCTS, type CurrentStatusAnalytics } from '@radar/contracts';
import { useAnalytics } from '../../api/admin.js';
import { AdminData } from '../AdminData/index.js';
import { ProductBreakdownChart } from './ProductBreakdownChart.js';
import { TriageChart } from './TriageChart.js';

/** Analytics: triage over time, and the top 12 products across both sources as a table and a stacked bar chart. */
export function AnalyticsTab() {
  return (
    <Stack spacing={3}>
      <TriageChart />
      <AdminData answer={useAnalytics()} what="analytics" empty={{ when: (data) => data.productBreakdown.length === 0, text: 'No products to show yet.' }}>
        {(data) => <ProductBreakdown rows={data.productBreakdown.slice(0, ANALYTICS_TOP_PRODUCTS)} />}
      </AdminData>
    </Stack>
  );
}

function ProductBreakdown({ rows }: { rows: CurrentStatusAnalytics['productBreakdown'] }) {
  return (
    <Stack spacing={3}>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
          Top {ANALYTICS_TOP_PRODUCTS} products
        </Typography>
        <ProductBreakdownChart rows={rows} />
      </Paper>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label="Product breakdown">
          <TableHead>
            <TableRow>
              <TableCell>Product</TableCell>
              <TableCell align="right">Total</TableCell>
              <TableCell align="right">Roadmap</TableCell>
              <TableCell align="right">Message Center</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.product}>
                <TableCell>{row.product}</TableCell>
                <TableCell align="right">{row.total}</TableCell>
                <TableCell align="right">{row.roadmapCount}</TableCell>
                <TableCell align="right">{row.messageCenterCount}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Stack>
  );
}
