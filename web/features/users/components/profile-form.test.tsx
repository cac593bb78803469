import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { api, ApiError } from '#web/lib/api-client.ts';
import { profile } from '#web/test/profile-fixture.ts';
import { deferred, fillIn, render } from '#web/test/render.tsx';

import { ProfileForm } from './profile-form.tsx';

const setup = () => {
  const onSaved = vi.fn();
  const view = render(<ProfileForm profile={profile} onCancel={() => {}} onSaved={onSaved} />);
  const save = () => view.user.click(screen.getByRole('button', { name: 'Save Profile' }));
  return { ...view, onSaved, save };
};

describe('ProfileForm', () => {
  it('refuses a blank name, a short mobile and a link without http, in the spec words', async () => {
    const put = vi.spyOn(api, 'put');
    const { save } = setup();
    fillIn(/^Name/, '');
    fillIn(/^Mobile/, '98765');
    fillIn('LinkedIn', 'linkedin.com/in/asha');
    await save();
    expect(await screen.findByText('Name is required.')).toBeInTheDocument();
    expect(screen.getByText('Mobile number must be 10 digits.')).toBeInTheDocument();
    expect(screen.getByText('Please enter a full link starting with http:// or https://.')).toBeInTheDocument();
    expect(put).not.toHaveBeenCalled();
  });

  it('asks for a designation of the new cadre (changing the cadre clears it)', async () => {
    const { user, save } = setup();
    await user.selectOptions(screen.getByLabelText('Cadre'), 'DRTC');
    await save();
    expect(await screen.findByText('Designation is required.')).toBeInTheDocument();
  });

  it('saves the profile with lists split, busy while sending, then hands back the saved profile', async () => {
    const answer = deferred<typeof profile>();
    const put = vi.spyOn(api, 'put').mockReturnValue(answer.promise);
    const { save, onSaved } = setup();
    fillIn('Skills', 'CFD, thermal analysis, fire modelling');
    await save();

    expect(put).toHaveBeenCalledTimes(1);
    const [url, body] = put.mock.calls[0]!;
    expect(url).toBe(`/api/users/${profile._id}`);
    expect(body).toMatchObject({
      personalDetails: { name: 'Asha Verma', mobile: '9876543210' },
      professionalDetails: { skills: ['CFD', 'thermal analysis', 'fire modelling'] },
    });
    expect(screen.getByRole('button', { name: 'Save Profile' })).toHaveAttribute('data-loading', 'true');
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled();

    answer.resolve(profile);
    expect(await screen.findByText('Profile updated successfully!')).toBeInTheDocument();
    expect(onSaved).toHaveBeenCalledWith(profile);
  });

  it("shows the server's refusal on its field and says the update failed", async () => {
    vi.spyOn(api, 'put').mockRejectedValue(
      new ApiError(400, 'Please choose a blood group from the list.', 'personalDetails.bloodGroup'),
    );
    const { save } = setup();
    await save();
    expect(await screen.findByText('Please choose a blood group from the list.')).toBeInTheDocument();
    expect(screen.getByText('Failed to update profile. Please try again.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Blood Group')).toHaveAttribute('aria-invalid', 'true'));
  });
});
