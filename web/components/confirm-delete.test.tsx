import { useMutation } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { deferred, render } from '#web/test/render.tsx';

import { ConfirmDelete, useConfirmedDelete } from './confirm-delete.tsx';

type Row = { _id: string; name: string };
const ROWS: Row[] = [
  { _id: 'a1', name: 'Fire drill' },
  { _id: 'b2', name: 'Store rules' },
];

/** A list whose rows are deleted through useConfirmedDelete, with the callbacks spied on. */
function List(props: {
  mutationFn: (id: string) => Promise<unknown>;
  deleted: (row: Row) => void;
  failed: () => void;
}) {
  const remove = useMutation({ mutationFn: props.mutationFn });
  const deletion = useConfirmedDelete<Row>(remove, { deleted: props.deleted, failed: props.failed });
  return (
    <>
      {ROWS.map((row) => (
        <button key={row._id} type="button" onClick={() => deletion.ask(row)}>
          Delete {row.name}
        </button>
      ))}
      <ConfirmDelete {...deletion.dialog} message={`Delete ${deletion.toDelete?.name ?? ''}?`} />
    </>
  );
}

const setup = (mutationFn: (id: string) => Promise<unknown>) => {
  const deleted = vi.fn();
  const failed = vi.fn();
  const view = render(<List mutationFn={mutationFn} deleted={deleted} failed={failed} />);
  return { ...view, deleted, failed };
};

describe('useConfirmedDelete', () => {
  it('asks about the row first, and Cancel deletes nothing', async () => {
    const mutationFn = vi.fn().mockResolvedValue({ message: 'Deleted.' });
    const { user, deleted } = setup(mutationFn);
    await user.click(screen.getByRole('button', { name: 'Delete Store rules' }));
    expect(await screen.findByRole('dialog')).toHaveTextContent('Delete Store rules?');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(mutationFn).not.toHaveBeenCalled();
    expect(deleted).not.toHaveBeenCalled();
  });

  it('deletes the row asked about by its id, busy while sending, then reports it and closes', async () => {
    const answer = deferred<unknown>();
    const mutationFn = vi.fn().mockReturnValue(answer.promise);
    const { user, deleted, failed } = setup(mutationFn);
    await user.click(screen.getByRole('button', { name: 'Delete Fire drill' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(mutationFn.mock.calls[0]![0]).toBe('a1');
    await waitFor(() => expect(dialog.querySelector('[data-loading]')).not.toBeNull());
    answer.resolve({ message: 'Deleted.' });
    await waitFor(() => expect(deleted).toHaveBeenCalledWith(ROWS[0]));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(failed).not.toHaveBeenCalled();
  });

  it('reports a refusal with the error and closes', async () => {
    const mutationFn = vi.fn().mockRejectedValue(new Error('You may not delete this.'));
    const { user, deleted, failed } = setup(mutationFn);
    await user.click(screen.getByRole('button', { name: 'Delete Store rules' }));
    await screen.findByRole('dialog');
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(failed).toHaveBeenCalledWith(new Error('You may not delete this.')));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(deleted).not.toHaveBeenCalled();
  });

  it('sends what `variables` makes of the row when the API needs more than its id', async () => {
    const mutationFn = vi.fn().mockResolvedValue({ message: 'Deleted.' });
    const deleted = vi.fn();
    function OwnedList() {
      const remove = useMutation({ mutationFn });
      const deletion = useConfirmedDelete<Row, { ownerId: string; rowId: string }>(remove, {
        variables: (row) => ({ ownerId: 'owner-1', rowId: row._id }),
        deleted,
        failed: vi.fn(),
      });
      return (
        <>
          <button type="button" onClick={() => deletion.ask(ROWS[1]!)}>
            Delete {ROWS[1]!.name}
          </button>
          <ConfirmDelete {...deletion.dialog} message={`Delete ${deletion.toDelete?.name ?? ''}?`} />
        </>
      );
    }
    const { user } = render(<OwnedList />);
    await user.click(screen.getByRole('button', { name: 'Delete Store rules' }));
    await screen.findByRole('dialog');
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(deleted).toHaveBeenCalledWith(ROWS[1]));
    expect(mutationFn.mock.calls[0]![0]).toEqual({ ownerId: 'owner-1', rowId: 'b2' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
