import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { api, ApiError } from '#web/lib/api-client.ts';
import { render } from '#web/test/render.tsx';

import { WriteCheckpointButton } from './write-checkpoint.tsx';

describe('WriteCheckpointButton', () => {
  it('writes a checkpoint and says up to which event, and where it is kept', async () => {
    const post = vi.spyOn(api, 'post').mockResolvedValue({
      name: '0000000000000000042-20261127T101502123Z.json',
      checkpoint: { seq: 42, count: 42 },
      places: ['DATA_DIR/audit-checkpoints'],
    });
    const { user } = render(<WriteCheckpointButton />);
    await user.click(screen.getByRole('button', { name: 'Write checkpoint' }));
    expect(post).toHaveBeenCalledWith('/api/audit/checkpoints');
    expect(
      await screen.findByText(
        'Checkpoint written: the chain up to event 42 (42 events), kept in DATA_DIR/audit-checkpoints.',
      ),
    ).toBeInTheDocument();
  });

  it("says the server's reason when it cannot be written", async () => {
    vi.spyOn(api, 'post').mockRejectedValue(
      new ApiError(503, 'The audit checkpoint could not be written just now. Please try again in a few minutes.'),
    );
    const { user } = render(<WriteCheckpointButton />);
    await user.click(screen.getByRole('button', { name: 'Write checkpoint' }));
    expect(
      await screen.findByText('The audit checkpoint could not be written just now. Please try again in a few minutes.'),
    ).toBeInTheDocument();
  });
});
