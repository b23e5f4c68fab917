import { Alert, Box, Button, IconButton, Link, Stack, Switch, Typography } from '@mui/material';
import { routes, TRIAGE_PRIORITY_LABELS, TRIAGE_STATE_LABELS, type TriageRule, type TriageRuleInput } from '@radar/contracts';
import { callEndpoint, urlOf, useDialogs, useEndpoint } from '@radar/shared-ui';
import { ArrowDownwardIcon, ArrowUpwardIcon } from '../icons/index.js';
import { errorMessageOf, useAdminAction } from '../../api/admin-actions.js';
import { fieldErrorsOf } from '../../api/field-errors.js';
import { AdminData } from '../AdminData/index.js';
import { AdminTable } from '../AdminTable/index.js';
import type { SaveProblems } from '../FormDialog/index.js';
import { TriageRuleDialog } from './TriageRuleDialog.js';
import { viewUrlOf } from './rule-view.js';

const LIST_KEY = urlOf(routes.triage.rules, {});

/** What the rule sets, in words. */
function actionsOf(rule: TriageRule): string {
  return [
    rule.setOwner ? `Owner: ${rule.setOwner.name}` : null,
    rule.setState ? `State: ${TRIAGE_STATE_LABELS[rule.setState]}` : null,
    rule.setPriority ? `Priority: ${TRIAGE_PRIORITY_LABELS[rule.setPriority]}` : null,
    rule.createTaskIn ? `Task in ${rule.createTaskIn.name}` : null,
  ]
    .filter(Boolean)
    .join(' · ');
}

const inputOf = (rule: TriageRule, change: Partial<TriageRuleInput> = {}): TriageRuleInput => ({
  name: rule.name,
  enabled: rule.enabled,
  query: rule.query,
  setOwnerId: rule.setOwner?.id ?? null,
  setState: rule.setState,
  setPriority: rule.setPriority,
  createTaskIn: rule.createTaskIn?.id ?? null,
  ...change,
});

/**
 * Admin → Triage, the rules: "when a new item matches this dashboard view, set owner / state / priority", run in order at
 * every sync for the items it brings, and on request over the open items (setting only what nobody decided yet).
 */
export function TriageRulesTab() {
  const list = useEndpoint(routes.triage.rules, {});
  const run = useAdminAction();
  const dialogs = useDialogs();

  /** Adds a rule, or changes `rule`; null when saved, else the problems the dialog shows. */
  const save = async (rule: TriageRule | null, input: TriageRuleInput): Promise<SaveProblems | null> => {
    const outcome = await run(
      () =>
        rule ? callEndpoint(routes.triage.updateRule, { params: { ruleId: rule.id }, body: input }) : callEndpoint(routes.triage.createRule, { body: input }),
      { success: { title: rule ? 'Rule saved' : 'Rule added' }, failure: (e) => `Could not save the rule: ${errorMessageOf(e)}`, revalidate: [LIST_KEY] },
    );
    // A problem of a part of a field is shown on the field ('query.releaseMoved' on the query).
    return outcome.ok ? null : { fields: fieldErrorsOf(outcome.error, (path) => path.split('.')[0] ?? path), message: null };
  };
  const edit = (rule: TriageRule | null) => void dialogs.open(TriageRuleDialog, { rule, save: (input: TriageRuleInput) => save(rule, input) });

  const move = (rules: TriageRule[], index: number, by: -1 | 1) => {
    const ids = rules.map((r) => r.id);
    const [id] = ids.splice(index, 1);
    if (id === undefined) return;
    ids.splice(index + by, 0, id);
    void run(() => callEndpoint(routes.triage.orderRules, { body: { ids } }), {
      failure: (e) => `Could not reorder the rules: ${errorMessageOf(e)}`,
      revalidate: [LIST_KEY],
    });
  };

  const remove = async (r: TriageRule) => {
    if (!(await dialogs.confirm('What it set stays.', { title: `Remove the rule “${r.name}”?`, okText: 'Remove' }))) return;
    await run(() => callEndpoint(routes.triage.deleteRule, { params: { ruleId: r.id } }), {
      success: { title: 'Rule removed' },
      failure: (err) => `Could not remove the rule: ${errorMessageOf(err)}`,
      revalidate: [LIST_KEY],
    });
  };

  const runNow = async () => {
    const ok = await dialogs.confirm(
      'Each enabled rule, in order, sets only what nobody decided yet: an owner where there is none, a state that is still New, a priority that is still the default.',
      { title: 'Run the rules on open items?', okText: 'Run rules', severity: 'primary' },
    );
    if (!ok) return;
    await run(() => callEndpoint(routes.triage.runRules), {
      success: ({ changed }) => ({ title: 'Rules ran', description: `${changed} ${changed === 1 ? 'item' : 'items'} changed.` }),
      failure: (e) => `Could not run the rules: ${errorMessageOf(e)}`,
    });
  };

  return (
    <Stack spacing={2}>
      <Typography color="text.secondary">
        Rules triage new items as each sync brings them, in this order: the first rule that matches and sets a field decides it. What a person decided is never
        changed.
      </Typography>
      <Stack direction="row" spacing={1}>
        <Button variant="contained" onClick={() => edit(null)}>
          Add rule
        </Button>
        <Button variant="outlined" onClick={() => void runNow()} disabled={!list.data?.rules.length}>
          Run rules on open items
        </Button>
      </Stack>
      <AdminData answer={list} what="triage rules" empty={{ when: (data) => data.rules.length === 0, text: 'No triage rules yet.' }}>
        {(data) => (
          <AdminTable
            label="Triage rules"
            rows={data.rules}
            rowKey={(r) => r.id}
            title={(r) => r.name}
            columns={[
              { key: 'order', label: '#', nowrap: true, render: (r) => r.position },
              { key: 'name', label: 'Name', inCardTitle: true, render: (r) => r.name },
              {
                key: 'when',
                label: 'When a new item matches',
                maxWidth: 360,
                render: (r) => (
                  <Link href={viewUrlOf(r.query)} target="_blank" rel="noopener" sx={{ overflowWrap: 'anywhere' }}>
                    {Object.keys(r.query).length ? viewUrlOf(r.query).replace('/dashboard?', '') : 'Every new item'}
                  </Link>
                ),
              },
              { key: 'then', label: 'Then set', render: (r) => actionsOf(r) },
              {
                key: 'enabled',
                label: 'Enabled',
                render: (r) => (
                  <Switch
                    checked={r.enabled}
                    slotProps={{ input: { 'aria-label': `Rule ${r.name} enabled` } }}
                    onChange={(e) =>
                      void run(() => callEndpoint(routes.triage.updateRule, { params: { ruleId: r.id }, body: inputOf(r, { enabled: e.target.checked }) }), {
                        failure: (err) => `Could not save the rule: ${errorMessageOf(err)}`,
                        revalidate: [LIST_KEY],
                      })
                    }
                  />
                ),
              },
            ]}
            actions={(r) => {
              const index = data.rules.indexOf(r);
              return (
                <Box sx={{ whiteSpace: 'nowrap' }}>
                  <IconButton aria-label={`Move ${r.name} up`} disabled={index === 0} onClick={() => move(data.rules, index, -1)}>
                    <ArrowUpwardIcon fontSize="small" />
                  </IconButton>
                  <IconButton aria-label={`Move ${r.name} down`} disabled={index === data.rules.length - 1} onClick={() => move(data.rules, index, 1)}>
                    <ArrowDownwardIcon fontSize="small" />
                  </IconButton>
                  <Button size="small" onClick={() => edit(r)}>
                    Edit
                  </Button>
                  <Button size="small" color="error" onClick={() => void remove(r)}>
                    Remove
                  </Button>
                </Box>
              );
            }}
          />
        )}
      </AdminData>
      {list.error ? <Alert severity="error">{errorMessageOf(list.error)}</Alert> : null}
    </Stack>
  );
}
