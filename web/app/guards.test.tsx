import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';

import { type Role, ROLES } from '#shared/constants.ts';
import type { UserJson } from '#shared/schemas/user.ts';

import { clearLogin, saveLogin } from '#web/lib/auth-storage.ts';
import { profile } from '#web/test/profile-fixture.ts';
import { render } from '#web/test/render.tsx';

import { RequireAdmin } from './guards.tsx';

/** /admin behind the admin guard, beside the pages it sends people to. */
const routes = (
  <Routes>
    <Route path="/" element={<p>Home page</p>} />
    <Route path="/login" element={<p>Login page</p>} />
    <Route element={<RequireAdmin />}>
      <Route path="/admin" element={<p>Admin page</p>} />
    </Route>
  </Routes>
);

const signInAs = (role: Role) => saveLogin({ token: 'a.token', user: { ...profile, role } as unknown as UserJson });

afterEach(() => clearLogin());

describe('RequireAdmin (spec §6 admin guard)', () => {
  it('lets an administrator in', () => {
    signInAs('admin');
    render(routes, { route: '/admin' });
    expect(screen.getByText('Admin page')).toBeInTheDocument();
  });

  it('sends every other signed-in role home', () => {
    for (const role of ROLES.filter((r) => r !== 'admin')) {
      signInAs(role);
      const { unmount } = render(routes, { route: '/admin' });
      expect(screen.getByText('Home page'), role).toBeInTheDocument();
      unmount();
    }
  });

  it('sends a visitor to sign in', () => {
    render(routes, { route: '/admin' });
    expect(screen.getByText('Login page')).toBeInTheDocument();
  });
});
