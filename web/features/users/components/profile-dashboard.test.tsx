import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { api } from '#web/lib/api-client.ts';
import { clearLogin } from '#web/lib/auth-storage.ts';
import { profile } from '#web/test/profile-fixture.ts';
import { render } from '#web/test/render.tsx';

import { ProfileDashboard } from './profile-dashboard.tsx';

afterEach(() => {
  clearLogin();
  vi.restoreAllMocks();
});

const showAs = (authSource: 'local' | 'directory') => {
  localStorage.setItem('userId', profile._id);
  vi.spyOn(api, 'get').mockResolvedValue({ ...profile, authSource });
  return render(<ProfileDashboard />);
};

describe('ProfileDashboard password section (decision 062)', () => {
  it('offers the password change to a local account', async () => {
    showAs('local');
    expect(await screen.findByLabelText(/Current Password/)).toBeInTheDocument();
  });

  it('tells a directory account to change its password in the lab directory, without the form', async () => {
    showAs('directory');
    expect(
      await screen.findByText('Your password is kept by the lab directory. Please change it there, not in the portal.'),
    ).toBeInTheDocument();
    expect(screen.queryByLabelText(/Current Password/)).not.toBeInTheDocument();
  });
});
