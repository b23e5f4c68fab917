import { useEffect, useRef, type InputHTMLAttributes } from 'react';
import { styled } from '@mui/material';

/*
 * The list's rows are plain <tr>/<td>/<input> elements with one class each, styled here once, not MUI's TableRow,
 * TableCell and Checkbox: those wrote three or four static class names on every cell (`MuiTableCell-root
 * MuiTableCell-body MuiTableCell-sizeSmall`), a class of their own per variant, and a Checkbox of 760 bytes (a ripple
 * span, an SVG icon) into every row of the server-rendered page. Nothing selects on those names in a row. The styles
 * are MUI's own for a small body cell and a hover row, so the rows look as they did; the header keeps MUI's cells.
 * Variants go by the cell's `data-col` inside `:where()`, so each keeps the specificity of one class and the table's
 * container queries (ItemTable's folds) still win over them.
 */

export const Row = styled('tr')(({ theme }) => {
  const vars = theme.vars ?? theme;
  return {
    color: 'inherit',
    display: 'table-row',
    verticalAlign: 'top',
    outline: 0,
    cursor: 'pointer',
    // Theme variables, not values: a server-rendered row is right in a dark page before it hydrates.
    '&[data-tint="new"]': { backgroundColor: theme.alpha(vars.palette.success.main, 0.08) },
    '&[data-tint="updated"]': { backgroundColor: theme.alpha(vars.palette.info.main, 0.08) },
    '&:hover': { backgroundColor: vars.palette.action.hover },
    '&[data-selected]': {
      backgroundColor: theme.alpha(vars.palette.primary.main, vars.palette.action.selectedOpacity),
      '&:hover': { backgroundColor: theme.alpha(vars.palette.primary.main, `${vars.palette.action.selectedOpacity} + ${vars.palette.action.hoverOpacity}`) },
    },
  };
});

export const Cell = styled('td')(({ theme }) => {
  const vars = theme.vars ?? theme;
  return {
    ...theme.typography.body2,
    display: 'table-cell',
    verticalAlign: 'inherit',
    // MUI's own: the theme's table border variable; a theme without variables (component tests) has no such colour.
    borderBottom: `1px solid ${theme.vars ? theme.vars.palette.TableCell.border : theme.palette.divider}`,
    textAlign: 'left',
    padding: '6px 16px',
    color: vars.palette.text.primary,
    '&:where([data-col="select"])': { padding: '0 12px 0 16px' },
    '&:where([data-col="id"])': { fontFamily: 'monospace', whiteSpace: 'nowrap' },
    '&:where([data-col="title"])': { minWidth: 280 },
    '&:where([data-col="release"], [data-col="modified"])': { whiteSpace: 'nowrap' },
    // The triage cells wrap, anywhere if need be: their column's width (COLUMN_WIDTHS) must hold whatever the rows
    // after the first screen's say. Kept on one line, a 'Closed before tracking' among them widened State from 120 to
    // 190 px after hydration and squeezed the titles above the fold onto one more line (layout shift).
    '&:where([data-col="state"], [data-col="owner"], [data-col="due"])': { overflowWrap: 'anywhere' },
    '&:where([data-overdue])': { color: vars.palette.error.main, fontWeight: 600 },
  };
});

/** A native checkbox in the theme's primary colour, the size of MUI's small one (20 px). */
const Box = styled('input')(({ theme }) => ({
  width: 18,
  height: 18,
  margin: 1,
  verticalAlign: 'top',
  cursor: 'pointer',
  accentColor: (theme.vars ?? theme).palette.primary.main,
  '&:disabled': { cursor: 'default' },
}));

export interface SelectBoxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  /** Shown as neither ticked nor not (some of the rows it stands for are chosen); a DOM property, set after render. */
  indeterminate?: boolean;
}

/** The selection column's checkbox (a row's, and the header's select-all), named by its `aria-label`. */
export function SelectBox({ indeterminate = false, ...props }: SelectBoxProps) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (input.current) input.current.indeterminate = indeterminate;
  }, [indeterminate]);
  return <Box ref={input} type="checkbox" {...props} />;
}
