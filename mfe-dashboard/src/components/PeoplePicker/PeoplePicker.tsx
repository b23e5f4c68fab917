import { useEffect, useState } from 'react';
import { Autocomplete, Box, TextField, Typography } from '@mui/material';
import type { TriagePerson } from '@radar/contracts';
import { findPeople } from '../../api/triage.js';

export interface PeoplePickerProps {
  label: string;
  value: TriagePerson | null;
  onChange: (person: TriagePerson | null) => void;
  disabled?: boolean;
  placeholder?: string;
  /** The tenant of the record being given: only people who may see it are offered. */
  tenant?: number | null;
}

/** Type-ahead over the product's users by name or e-mail (moderators and admins: GET /api/triage/people). */
export function PeoplePicker({ label, value, onChange, disabled, placeholder, tenant }: PeoplePickerProps) {
  const [input, setInput] = useState('');
  const [options, setOptions] = useState<TriagePerson[]>([]);
  useEffect(() => {
    if (disabled) return;
    let current = true;
    const timer = setTimeout(() => {
      findPeople(input, tenant).then(
        (answer) => current && setOptions(answer.people),
        () => current && setOptions([]),
      );
    }, 200);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [input, disabled, tenant]);
  return (
    <Autocomplete
      size="small"
      disabled={disabled}
      options={value && !options.some((o) => o.id === value.id) ? [value, ...options] : options}
      value={value}
      filterOptions={(x) => x}
      getOptionLabel={(o) => o.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      renderOption={(props, o) => (
        <li {...props} key={o.id}>
          <Box>
            <Typography variant="body2">{o.name}</Typography>
            <Typography variant="caption" color="text.secondary">
              {o.email}
            </Typography>
          </Box>
        </li>
      )}
      onInputChange={(_, text) => setInput(text)}
      onChange={(_, person) => onChange(person)}
      renderInput={(params) => <TextField {...params} label={label} placeholder={placeholder} />}
      sx={{ minWidth: 220 }}
    />
  );
}
