import { describe, expect, it, jest } from '@jest/globals';
import { act, renderHook } from '@testing-library/react';
import { useDialogSave, type SaveProblems } from './use-dialog-save.js';

describe('useDialogSave', () => {
  it('is busy while the save runs, keeps the problems of a refused save open, and closes once saved', async () => {
    const close = jest.fn();
    let answer: (problems: SaveProblems | null) => void = () => {};
    const save = jest.fn((_body: string) => new Promise<SaveProblems | null>((resolve) => (answer = resolve)));
    const { result } = renderHook(() => useDialogSave(save, close));

    let sent: Promise<void> = Promise.resolve();
    act(() => {
      sent = result.current.submit('Contoso');
    });
    expect(result.current.busy).toBe(true);
    await act(async () => {
      answer({ fields: { name: 'A tenant named Contoso already exists' }, message: null });
      await sent;
    });
    expect(result.current).toMatchObject({ busy: false, problems: { fields: { name: 'A tenant named Contoso already exists' }, message: null } });
    expect(close).not.toHaveBeenCalled();

    await act(async () => {
      const again = result.current.submit('Northwind');
      answer(null);
      await again;
    });
    expect(save).toHaveBeenLastCalledWith('Northwind');
    expect(result.current.problems).toEqual({ fields: {}, message: null });
    expect(close).toHaveBeenCalledTimes(1);
  });
});
