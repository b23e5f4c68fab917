import { Alert, Paper, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { ANALYTICS_TOP_PRODUCTS } from '@radar/contracts';
import { useAnalytics } from '../../api/admin.js';
import { errorMessageOf } from '../../api/admin-actions.js';
import { ProductBreakdownChart } from './ProductBreakdownChart.js';

/** Analytics: the top 12 products across both sources, as a table and a stacked bar chart. */
export function AnalyticsTab() {
  const { data, error, isLoading } = useAnalytics();
  if (error) return <Alert severity="error">Could not load analytics ({errorMessageOf(error)}).</Alert>;
  if (isLoading || !data) return <Typography color="text.secondary">Loading analytics...</Typography>;
  const rows = data.productBreakdown.slice(0, ANALYTICS_TOP_PRODUCTS);
  if (rows.length === 0) return <Typography color="text.secondary">No products to show yet.</Typography>;
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
