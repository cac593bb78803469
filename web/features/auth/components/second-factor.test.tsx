import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import i18n from '#web/i18n/index.ts';
import { clearLogin, getToken } from '#web/lib/auth-storage.ts';
import { profile } from '#web/test/profile-fixture.ts';
import { fillIn, jsonResponse, render } from '#web/test/render.tsx';

import { SecondFactorPrompt, TotpEnrolment } from './second-factor.tsx';

// The second factor's screens (decision 064): the code prompt and the authenticator app's set-up. Their journeys in
// a browser against the real server are in e2e/second-factor.e2e.ts; here the messages each one shows.

const session = { token: 'header.eyJleHAiOjQxMDI0NDQ4MDB9.sig', user: profile };
const wrongCode = {
  code: 'auth.second_factor_code_invalid',
  message: 'That code is not right. Please try again.',
  field: 'code',
};
const expiredStep = {
  code: 'auth.second_factor_ticket_invalid',
  message: 'This sign-in step has expired. Please sign in again.',
};
const enrolment = {
  secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  otpauthUrl: 'otpauth://totp/Lab%20Portal:a%40lab.test?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Lab%20Portal',
  qrDataUrl: 'data:image/png;base64,iVBORw0KGgo=',
};
const recoveryCodes = Array.from({ length: 10 }, (_, i) => `abcd${i}-fghi${i}`);

/** The API as these screens meet it: each path answers what `answers` gives it (a Response, or one per call). */
function serve(answers: Record<string, Response | (() => Response)>) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = String(input);
    for (const [path, answer] of Object.entries(answers))
      if (url.startsWith(path)) return typeof answer === 'function' ? answer() : answer;
    return jsonResponse(404, { message: 'Not found' });
  });
}

/** The JSON bodies sent to `path`. */
const sent = (fetch: ReturnType<typeof serve>, path: string) =>
  fetch.mock.calls.filter(([url]) => String(url).startsWith(path)).map(([, init]) => JSON.parse(String(init!.body)));

afterEach(async () => {
  vi.restoreAllMocks();
  clearLogin();
  await i18n.changeLanguage('en');
});

describe('SecondFactorPrompt', () => {
  it('puts the focus on the code and says an empty code at once, without asking the server', async () => {
    const fetch = serve({});
    const { user } = render(<SecondFactorPrompt ticket="t-1" onDone={() => undefined} />);
    const code = screen.getByRole('textbox', { name: /^Code/ });
    await waitFor(() => expect(code).toHaveFocus());
    expect(code).toHaveAccessibleDescription(/recovery code such as abcde-fghij/);
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Enter the code.')).toBeInTheDocument();
    expect(code).toHaveAttribute('aria-invalid', 'true');
    fillIn(/^Code/, '   ');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByText('Enter the code.')).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('sends the code with the ticket, stores the session and goes on', async () => {
    const fetch = serve({ '/api/auth/second-factor/verify': jsonResponse(200, session) });
    const onDone = vi.fn();
    const { user } = render(<SecondFactorPrompt ticket="t-1" onDone={onDone} />);
    fillIn(/^Code/, ' 123456 ');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(onDone).toHaveBeenCalledWith(session));
    expect(sent(fetch, '/api/auth/second-factor/verify')).toEqual([{ ticket: 't-1', code: '123456' }]);
    expect(getToken()).toBe(session.token);
  });

  it('says a wrong code under the field, in the reader’s language, and takes it away on the next try', async () => {
    let calls = 0;
    serve({
      '/api/auth/second-factor/verify': () =>
        ++calls === 1 ? jsonResponse(400, wrongCode) : jsonResponse(200, session),
    });
    const onDone = vi.fn();
    const { user } = render(<SecondFactorPrompt ticket="t-1" onDone={onDone} />);
    fillIn(/^Code/, '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    const code = screen.getByRole('textbox', { name: /^Code/ });
    await waitFor(() => expect(code).toHaveAccessibleDescription(/That code is not right\. Please try again\./));
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(onDone).not.toHaveBeenCalled();
    expect(getToken()).toBeNull();
    await i18n.changeLanguage('hi');
    expect(await screen.findByText('यह कोड सही नहीं है। कृपया फिर से प्रयास करें।')).toBeInTheDocument();
    fillIn(/^कोड/, '123456');
    await user.click(screen.getByRole('button', { name: 'सत्यापित करें' }));
    await waitFor(() => expect(onDone).toHaveBeenCalledWith(session));
    expect(screen.queryByText('यह कोड सही नहीं है। कृपया फिर से प्रयास करें।')).not.toBeInTheDocument();
  });

  it('says a refusal no field shows (the sign-in step expired) above the button, as an alert', async () => {
    serve({ '/api/auth/second-factor/verify': jsonResponse(400, expiredStep) });
    const { user } = render(<SecondFactorPrompt ticket="t-1" onDone={() => undefined} />);
    fillIn(/^Code/, '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This sign-in step has expired. Please sign in again.');
    expect(screen.getByRole('textbox', { name: /^Code/ })).not.toHaveAttribute('aria-invalid', 'true');
  });
});

describe('TotpEnrolment', () => {
  it('says why an app is needed: required at sign-in, of one’s own accord in My Account', () => {
    serve({});
    const { unmount } = render(<TotpEnrolment ticket="t-1" onDone={() => undefined} />);
    expect(screen.getByText(/Your role requires a second factor/)).toBeInTheDocument();
    unmount();
    render(<TotpEnrolment optional onDone={() => undefined} />);
    expect(screen.queryByText(/Your role requires/)).not.toBeInTheDocument();
    expect(screen.getByText(/its code is asked for at every sign-in/)).toBeInTheDocument();
  });

  it('shows the QR code and the key in groups of four, with the focus on the instructions', async () => {
    serve({ '/api/auth/second-factor/totp/enrol': jsonResponse(200, enrolment) });
    const { user } = render(<TotpEnrolment optional onDone={() => undefined} />);
    await user.click(screen.getByRole('button', { name: 'Show the QR code' }));
    const qr = await screen.findByRole('img', { name: 'QR code for your authenticator app' });
    expect(qr).toHaveAttribute('src', enrolment.qrDataUrl);
    expect(screen.getByTestId('totp-secret')).toHaveTextContent('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    await waitFor(() => expect(screen.getByText('Scan this QR code with your authenticator app.')).toHaveFocus());
  });

  it('says a failed start in an alert', async () => {
    serve({
      '/api/auth/second-factor/totp/enrol': jsonResponse(409, {
        code: 'auth.second_factor_already_set_up',
        message: 'You already have a second factor. Sign in with it, then add another in My Account.',
      }),
    });
    const { user } = render(<TotpEnrolment ticket="t-1" onDone={() => undefined} />);
    await user.click(screen.getByRole('button', { name: 'Show the QR code' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('You already have a second factor.');
  });

  it('checks the code and the name before sending, and says a wrong code under the field', async () => {
    const fetch = serve({
      '/api/auth/second-factor/totp/enrol': jsonResponse(200, enrolment),
      '/api/auth/second-factor/totp/confirm': jsonResponse(400, wrongCode),
    });
    const { user } = render(<TotpEnrolment optional onDone={() => undefined} />);
    await user.click(screen.getByRole('button', { name: 'Show the QR code' }));
    await screen.findByTestId('totp-secret');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Enter the code.')).toBeInTheDocument();
    expect(sent(fetch, '/api/auth/second-factor/totp/confirm')).toEqual([]);

    fillIn('Name for this app (optional)', 'x'.repeat(61)); // more than the field lets one type, as by a paste
    fillIn(/^Code/, '123456');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('The name must be at most 60 characters.')).toBeInTheDocument();
    expect(sent(fetch, '/api/auth/second-factor/totp/confirm')).toEqual([]);

    fillIn('Name for this app (optional)', ' My phone ');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    const code = screen.getByRole('textbox', { name: /^Code/ });
    await waitFor(() => expect(code).toHaveAccessibleDescription(/That code is not right\. Please try again\./));
    expect(sent(fetch, '/api/auth/second-factor/totp/confirm')).toEqual([{ code: '123456', label: 'My phone' }]);
  });

  it('shows the ten recovery codes once after a right code, then goes on with the session', async () => {
    const fetch = serve({
      '/api/auth/second-factor/totp/enrol': jsonResponse(200, enrolment),
      '/api/auth/second-factor/totp/confirm': jsonResponse(200, { ...session, recoveryCodes }),
    });
    const onDone = vi.fn();
    const { user } = render(<TotpEnrolment ticket="t-1" onDone={onDone} />);
    await user.click(screen.getByRole('button', { name: 'Show the QR code' }));
    await screen.findByTestId('totp-secret');
    fillIn(/^Code/, '123456');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    const list = await screen.findByRole('list', { name: 'Your recovery codes' });
    expect(list.querySelectorAll('[role="listitem"]')).toHaveLength(10);
    expect(sent(fetch, '/api/auth/second-factor/totp/confirm')).toEqual([{ ticket: 't-1', code: '123456' }]);
    expect(onDone).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'I have saved them, continue' }));
    expect(onDone).toHaveBeenCalledWith(session);
  });
});
