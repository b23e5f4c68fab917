import { Alert, Box, Paper, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography, useTheme } from '@mui/material';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { ANALYTICS_TOP_PRODUCTS } from '@radar/contracts';
import { useAnalytics } from '../../api/admin.js';
import { errorMessageOf } from '../../api/admin-actions.js';

/** Analytics: the top 12 products across both sources, as a table and a stacked bar chart. */
export function AnalyticsTab() {
  const theme = useTheme();
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
        <Box
          sx={{ width: '100%', height: 360 }}
          role="img"
          aria-label={`Bar chart of items per product: ${rows.map((r) => `${r.product} ${r.total}`).join(', ')}`}
        >
          <ResponsiveContainer width="100%" height="100%" minWidth={0}>
            <BarChart data={rows} margin={{ top: 8, right: 16, bottom: 64, left: 0 }}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="product" angle={-30} textAnchor="end" interval={0} height={80} tick={{ fontSize: 12 }} />
              <YAxis allowDecimals={false} />
              <Tooltip />
              <Legend verticalAlign="top" />
              <Bar dataKey="roadmapCount" name="Roadmap" stackId="items" fill={theme.palette.primary.main} />
              <Bar dataKey="messageCenterCount" name="Message Center" stackId="items" fill={theme.palette.secondary.main} />
            </BarChart>
          </ResponsiveContainer>
        </Box>
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
