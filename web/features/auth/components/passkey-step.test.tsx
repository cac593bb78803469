import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { render } from '#web/test/render.tsx';

import { PasskeyStep } from './passkey-step.tsx';

// The passkey part of the second step (decision 065). jsdom has no WebAuthn; a stub PublicKeyCredential stands in
// for a browser that has it (the ceremony itself runs in the e2e test, with Chromium's virtual authenticator).

afterEach(() => vi.unstubAllGlobals());

describe('PasskeyStep', () => {
  it('offers "Use a passkey" first, then the code prompt', () => {
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
    render(
      <PasskeyStep mode="prompt" ticket="t" onDone={() => {}}>
        <p>code prompt</p>
      </PasskeyStep>,
    );
    expect(screen.getByRole('heading', { name: 'Use your passkey' })).toBeTruthy();
    const button = screen.getByRole('button', { name: 'Use a passkey' });
    const prompt = screen.getByText('code prompt');
    expect(button.compareDocumentPosition(prompt) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByText('or enter a code')).toBeTruthy();
  });

  it('offers "Add a passkey" with a name at enrolment, above the authenticator app', () => {
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
    render(
      <PasskeyStep mode="enrol" ticket="t" onDone={() => {}}>
        <p>app set-up</p>
      </PasskeyStep>,
    );
    expect(screen.getByLabelText(/Name of this passkey/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add a passkey' })).toBeTruthy();
    expect(screen.getByText('or use an authenticator app')).toBeTruthy();
  });

  it('says so where the browser cannot use passkeys, and leaves the code to the person', () => {
    vi.stubGlobal('PublicKeyCredential', undefined);
    render(
      <PasskeyStep mode="prompt" ticket="t" onDone={() => {}}>
        <p>code prompt</p>
      </PasskeyStep>,
    );
    expect(screen.getByText('This browser cannot use passkeys.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Use a passkey' })).toBeNull();
    expect(screen.getByText('code prompt')).toBeTruthy();
  });

  it('shows only the code prompt for a person without a passkey', () => {
    render(
      <PasskeyStep mode="none" ticket="t" onDone={() => {}}>
        <p>code prompt</p>
      </PasskeyStep>,
    );
    expect(screen.queryByRole('heading')).toBeNull();
    expect(screen.getByText('code prompt')).toBeTruthy();
  });
});
