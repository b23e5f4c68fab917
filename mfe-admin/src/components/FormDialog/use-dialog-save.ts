import { useState } from 'react';

/** Why a save was refused: the problems by field, and a failure that is not about one field. */
export interface SaveProblems {
  fields: Record<string, string>;
  message: string | null;
}

const NONE: SaveProblems = { fields: {}, message: null };

/**
 * The save of a dialog opened with `useDialogs().open`: busy while `save` runs, closed when it answers null, kept open
 * with the problems it answers otherwise. The dialog owns this state, so the tab that opens it keeps none.
 */
export function useDialogSave<B>(save: (body: B) => Promise<SaveProblems | null>, close: () => void) {
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<SaveProblems>(NONE);
  const submit = async (body: B) => {
    setBusy(true);
    setProblems(NONE);
    const refused = await save(body);
    setBusy(false);
    if (refused) setProblems(refused);
    else close();
  };
  return { busy, problems, submit };
}
