import { notifications } from '@mantine/notifications';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { deferred, fillIn, jsonResponse, render, type User } from '#web/test/render.tsx';

import { RegisterForm } from './register-form.tsx';

const fill = async (user: User, values: { email?: string; password?: string; name?: string }) => {
  if (values.email) fillIn(/^Email/, values.email);
  if (values.password) fillIn(/^Password/, values.password);
  if (values.name) fillIn(/^Name/, values.name);
};
const submit = (user: User) => user.click(screen.getByRole('button', { name: 'Register' }));

describe('RegisterForm', () => {
  it('says what is missing on an empty submit, in the spec words, and sends nothing', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch');
    const { user } = render(<RegisterForm />);
    await submit(user);
    expect(await screen.findByText('Email is required.')).toBeInTheDocument();
    expect(screen.getByText('Password is required.')).toBeInTheDocument();
    expect(screen.getByText('Name is required.')).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('refuses a bad email, a short password and a mobile that is not 10 digits', async () => {
    const { user } = render(<RegisterForm />);
    await fill(user, { email: 'not-an-email', password: 'abc', name: 'Asha Rao' });
    fillIn(/^Mobile/, '12345');
    await submit(user);
    expect(await screen.findByText('Invalid email address.')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 6 characters.')).toBeInTheDocument();
    expect(screen.getByText('Mobile number must be 10 digits.')).toBeInTheDocument();
  });

  it('asks for the designation once a cadre is chosen', async () => {
    const { user } = render(<RegisterForm />);
    await fill(user, { email: 'asha@lab.local', password: 'secret1', name: 'Asha Rao' });
    await user.selectOptions(screen.getByLabelText('Cadre'), 'DRDS');
    await submit(user);
    expect(await screen.findByText('Designation is required.')).toBeInTheDocument();
  });

  it('sends the registration, keeps the button busy meanwhile, then says it awaits approval', async () => {
    const answer = deferred<Response>();
    const fetch = vi.spyOn(globalThis, 'fetch').mockReturnValue(answer.promise);
    const toast = vi.spyOn(notifications, 'show');
    const { user } = render(<RegisterForm />);
    await fill(user, { email: 'Asha@Lab.local', password: 'secret1', name: 'Asha Rao' });
    await submit(user);

    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/auth/register');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toMatchObject({
      email: 'Asha@Lab.local',
      password: 'secret1',
      role: 'employee',
      personalDetails: { name: 'Asha Rao' },
    });
    expect(screen.getByRole('button', { name: 'Register' })).toHaveAttribute('data-loading', 'true');

    answer.resolve(jsonResponse(201, { message: 'User saved successfully!', user: {} }));
    expect(
      await screen.findByText(
        'Your account is awaiting admin approval. You can log in once an administrator approves it.',
      ),
    ).toBeInTheDocument();
    expect(screen.getAllByText('User saved successfully!')).toHaveLength(1);
    expect(toast).not.toHaveBeenCalled(); // said once, by the banner
    expect(screen.getByLabelText(/^Email/)).toHaveValue('');
  });

  it('shows a taken email under the email field', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      jsonResponse(409, {
        error: 'User already exists',
        message: 'User already exists',
        code: 'auth.user_exists',
        field: 'email',
      }),
    );
    const { user } = render(<RegisterForm />);
    await fill(user, { email: 'asha@lab.local', password: 'secret1', name: 'Asha Rao' });
    await submit(user);
    expect(await screen.findByText('Email ID is already registered.')).toBeInTheDocument();
  });

  it("puts the server's field error on its input and toasts the sentence", async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      jsonResponse(400, { error: 'Mobile number must be 10 digits.', field: 'personalDetails.mobile' }),
    );
    const { user } = render(<RegisterForm />);
    await fill(user, { email: 'asha@lab.local', password: 'secret1', name: 'Asha Rao' });
    await submit(user);
    const mobile = screen.getByLabelText(/^Mobile/);
    await waitFor(() => expect(mobile).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getAllByText('Mobile number must be 10 digits.').length).toBeGreaterThanOrEqual(2); // field + toast
  });
});
