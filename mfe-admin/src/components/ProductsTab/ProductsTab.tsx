import { useState } from 'react';
import { Button, MenuItem, Stack, Switch, TextField, Typography } from '@mui/material';
import { AdminTable } from '../AdminTable/index.js';
import { AdminData } from '../AdminData/index.js';
import { DeleteIconButton } from '../DeleteIconButton/index.js';
import { PRODUCT_FAMILIES, PRODUCT_FAMILY_LABELS, type ProductFamily, type ProductMapping } from '@radar/contracts';
import { formatDate, useDialogs } from '@radar/shared-ui';
import { adminWrites } from '../../api/admin-writes.js';
import { ADMIN_KEYS, useProductMappings } from '../../api/admin.js';
import { errorMessageOf, useAdminAction } from '../../api/admin-actions.js';
import { LicenceEditor } from './LicenceEditor.js';
import { DisplayNameEditor } from './DisplayNameEditor.js';

/** The family select's value for "let the rules decide". */
const BY_RULE = 'rule';

// Analytics reads the mappings (display names, inactive ones left out), so it is refreshed with them.
const MAPPING_LISTS = [ADMIN_KEYS.productMappings, ADMIN_KEYS.analytics];
const failure = (verb: string) => (error: unknown) => `Failed to ${verb} product mapping: ${errorMessageOf(error)}`;

/** Products: initialize mappings, toggle active, rename inline, set the product family (or leave it to the rules), delete. */
export function ProductsTab() {
  const mappings = useProductMappings();
  const run = useAdminAction();
  const dialogs = useDialogs();
  const [initializing, setInitializing] = useState(false);

  const initialize = async () => {
    setInitializing(true);
    await run(() => adminWrites.initializeProductMappings(), {
      success: (answer) => ({ title: 'Product mappings initialized', description: answer.message }),
      failure: failure('initialize'),
      revalidate: MAPPING_LISTS,
    });
    setInitializing(false);
  };
  const update = (
    mapping: ProductMapping,
    patch: { displayName: string } | { isActive: boolean } | { family: ProductFamily | null } | { licencePlans: string[] | null },
  ) =>
    run(() => adminWrites.updateProductMapping(mapping.id, patch), {
      success: { title: 'Product mapping updated', description: `${mapping.sourceProduct} was updated.` },
      failure: failure('update'),
      revalidate: MAPPING_LISTS,
    });
  // A deleted mapping loses its display name and family choice, so deleting asks first, as role and user deletes do.
  const remove = (mapping: ProductMapping) =>
    void dialogs.confirm(`Delete the mapping for ${mapping.sourceProduct}? Its display name, visibility and family choice are lost.`, {
      title: 'Delete product mapping',
      okText: 'Delete Mapping',
      action: () =>
        run(() => adminWrites.deleteProductMapping(mapping.id), {
          success: { title: 'Product mapping deleted', description: `${mapping.sourceProduct} was deleted.` },
          failure: failure('delete'),
          revalidate: MAPPING_LISTS,
        }),
    });

  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ justifyContent: 'space-between', alignItems: { xs: 'stretch', sm: 'center' } }}>
        <Typography color="text.secondary">
          Display names and visibility of the products in analytics, the product family each belongs to (the dashboard&apos;s Product family filter), and the
          service plans that license it (the &quot;Only products we license&quot; filter).
        </Typography>
        <Button variant="contained" onClick={() => void initialize()} disabled={initializing}>
          {initializing ? 'Initializing...' : 'Initialize Mappings'}
        </Button>
      </Stack>
      <AdminData
        answer={mappings}
        what="product mappings"
        empty={{ when: (rows) => rows.length === 0, text: 'No product mappings yet. Initialize them from the synced items.' }}
      >
        {(data) => (
          <AdminTable
            label="Product mappings"
            rows={data}
            rowKey={(mapping) => mapping.id}
            title={(mapping) => mapping.sourceProduct}
            columns={[
              { key: 'product', label: 'Source product', inCardTitle: true, render: (mapping) => mapping.sourceProduct },
              { key: 'source', label: 'Source', nowrap: true, render: (mapping) => (mapping.dataSource === 'roadmap' ? 'Roadmap' : 'Message Center') },
              {
                key: 'displayName',
                label: 'Display name',
                render: (mapping) => (
                  <DisplayNameEditor
                    value={mapping.displayName}
                    sourceProduct={mapping.sourceProduct}
                    onSave={(displayName) => void update(mapping, { displayName })}
                  />
                ),
              },
              {
                key: 'active',
                label: 'Active',
                nowrap: true,
                render: (mapping) => (
                  <>
                    <Switch
                      checked={mapping.isActive}
                      onChange={(event) => void update(mapping, { isActive: event.target.checked })}
                      slotProps={{ input: { 'aria-label': `${mapping.sourceProduct} active` } }}
                    />
                    {mapping.isActive ? 'Active' : 'Inactive'}
                  </>
                ),
              },
              {
                key: 'family',
                label: 'Product family',
                render: (mapping) => (
                  <TextField
                    select
                    size="small"
                    value={mapping.familySource === 'admin' ? mapping.family : BY_RULE}
                    onChange={(event) => void update(mapping, { family: event.target.value === BY_RULE ? null : (event.target.value as ProductFamily) })}
                    slotProps={{ htmlInput: { 'aria-label': `Product family of ${mapping.sourceProduct}` } }}
                    sx={{ minWidth: { xs: 0, md: 200 }, width: { xs: '100%', md: 'auto' } }}
                  >
                    <MenuItem value={BY_RULE}>{`${PRODUCT_FAMILY_LABELS[mapping.ruleFamily]} (by rule)`}</MenuItem>
                    {PRODUCT_FAMILIES.map((family) => (
                      <MenuItem key={family} value={family}>
                        {PRODUCT_FAMILY_LABELS[family]}
                      </MenuItem>
                    ))}
                  </TextField>
                ),
              },
              {
                key: 'licence',
                label: 'Licensed by',
                hint: 'The service plans (Graph subscribedSkus) that license the product, for the "Only products we license" filter',
                render: (mapping) => <LicenceEditor mapping={mapping} onSave={(licencePlans) => void update(mapping, { licencePlans })} />,
              },
              { key: 'updated', label: 'Updated', nowrap: true, render: (mapping) => formatDate(mapping.updatedAt) },
            ]}
            actions={(mapping) => (
              <DeleteIconButton label={`Delete mapping ${mapping.sourceProduct}`} tooltip="Delete mapping" onClick={() => remove(mapping)} />
            )}
          />
        )}
      </AdminData>
    </Stack>
  );
}
