import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import type { CloseGroupJson } from '#shared/schemas/close-group.ts';

import { api, ApiError } from '#web/lib/api-client.ts';
import { deferred, fillIn, pickOption, render } from '#web/test/render.tsx';

import { CloseGroupForm } from './close-group-form.tsx';

const ASHA = { _id: '00000000-0000-4000-8000-0000000000a1', name: 'Asha Verma', email: 'asha.verma@lab.local' };
const RAVI = { _id: '00000000-0000-4000-8000-0000000000a2', name: 'Ravi Kumar', email: 'ravi.kumar@lab.local' };
const group = {
  _id: '00000000-0000-4000-8000-0000000000c1',
  groupName: 'Blast Trials Review',
  groupPurpose: 'Review of the 2026 trials.',
  groupDuration: { from: '2026-01-01', to: '2026-12-31' },
  requestedBy: [ASHA],
  adminRemarks: '',
} as CloseGroupJson;

const setup = (editing: CloseGroupJson | null = null) => {
  // The Requested By picker searches staff: two people on the list.
  vi.spyOn(api, 'get').mockResolvedValue({
    items: [ASHA, RAVI].map((p) => ({ _id: p._id, email: p.email, personalDetails: { name: p.name } })),
    total: 2,
  });
  const onDone = vi.fn();
  return { ...render(<CloseGroupForm editing={editing} onDone={onDone} />), onDone };
};

describe('CloseGroupForm', () => {
  it('names every missing field in the spec words and sends nothing', async () => {
    const post = vi.spyOn(api, 'post');
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'Create Group' }));
    expect(await screen.findByText('Group Name is required.')).toBeInTheDocument();
    expect(screen.getByText('Group Purpose is required.')).toBeInTheDocument();
    expect(screen.getByText('Group Duration (From and To dates) are required.')).toBeInTheDocument();
    expect(screen.getByText('Please select at least one user for Requested By.')).toBeInTheDocument();
    expect(post).not.toHaveBeenCalled();
  });

  it('refuses a start after the end', async () => {
    const { user } = setup(group);
    fillIn(/^From/, '31-12-2026');
    fillIn(/^To/, '01-01-2026');
    await user.click(screen.getByRole('button', { name: 'Update Group' }));
    expect(await screen.findByText('Start date cannot be after end date.')).toBeInTheDocument();
  });

  it('creates a group with the people picked, busy while sending, then says so', async () => {
    const answer = deferred<CloseGroupJson>();
    const post = vi.spyOn(api, 'post').mockReturnValue(answer.promise);
    const { user, onDone } = setup();
    fillIn(/^Group Name/, 'Fire Door Audit');
    fillIn(/^Group Purpose/, 'Audit of every fire door.');
    fillIn(/^From/, '01-12-2026');
    fillIn(/^To/, '31-12-2026');
    await pickOption(user, /^Requested By/, `${RAVI.name} (${RAVI.email})`);
    await user.click(screen.getByRole('button', { name: 'Create Group' }));

    expect(post).toHaveBeenCalledWith('/admin/close-group', {
      groupName: 'Fire Door Audit',
      groupPurpose: 'Audit of every fire door.',
      groupDuration: { from: '2026-12-01', to: '2026-12-31' },
      requestedBy: [RAVI._id],
      adminRemarks: '',
    });
    expect(screen.getByRole('button', { name: 'Create Group' })).toHaveAttribute('data-loading', 'true');
    answer.resolve(group);
    expect(await screen.findByText('Group created successfully!')).toBeInTheDocument();
    expect(onDone).toHaveBeenCalled();
  });

  it('updates the group it edits', async () => {
    const put = vi.spyOn(api, 'put').mockResolvedValue(group);
    const { user, onDone } = setup(group);
    fillIn(/^Admin Remarks/, 'Approved by the Director.');
    await user.click(screen.getByRole('button', { name: 'Update Group' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(put).toHaveBeenCalledWith(`/admin/close-group/${group._id}`, {
      groupName: group.groupName,
      groupPurpose: group.groupPurpose,
      groupDuration: group.groupDuration,
      requestedBy: [ASHA._id],
      adminRemarks: 'Approved by the Director.',
    });
    expect(await screen.findByText('Group updated successfully!')).toBeInTheDocument();
  });

  it("shows the server's refusal of a member on Requested By and toasts it", async () => {
    vi.spyOn(api, 'put').mockRejectedValue(new ApiError(400, 'Please choose users from the list.', 'requestedBy.0'));
    const { user, onDone } = setup(group);
    await user.click(screen.getByRole('button', { name: 'Update Group' }));
    await waitFor(() => expect(screen.getAllByText('Please choose users from the list.')).toHaveLength(2)); // field and toast
    expect(screen.getByText('Operation failed. Please check your inputs.')).toBeInTheDocument();
    expect(onDone).not.toHaveBeenCalled();
  });
});
