import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { VerificationJson } from '#shared/schemas/signature.ts';

import i18n from '#web/i18n/index.ts';
import { jsonResponse, render } from '#web/test/render.tsx';

import { SignaturePanel } from './signature-panel.tsx';

/** The signature panel (decision 123) words the server's check: valid or not, changed after, trusted or not, IST. */
const cert = (commonName: string, issuer: string) => ({
  subject: `C=IN, CN=${commonName}`,
  commonName,
  issuer,
  serialNumber: '01',
  validFrom: '2026-01-01T00:00:00.000Z',
  validTo: '2028-01-01T00:00:00.000Z',
  fingerprint256: `${commonName}-fp`,
});
const signature = (over: Partial<VerificationJson['signatures'][number]> = {}) => ({
  field: 'Signature1',
  signer: cert('Test Lab Seal', 'CN=Test Root CA'),
  chain: [cert('Test Lab Seal', 'CN=Test Root CA'), cert('Test Root CA', 'CN=Test Root CA')],
  signingTime: '2026-12-07T09:31:00.000Z',
  reason: 'Approved',
  location: 'Test Lab',
  subFilter: 'ETSI.CAdES.detached',
  status: 'valid' as const,
  intact: true,
  signatureValid: true,
  trusted: true,
  changedAfter: false,
  problem: null,
  ...over,
});
const report = (over: Partial<VerificationJson> = {}): VerificationJson => ({
  signed: true,
  valid: true,
  changedAfterLastSignature: false,
  signatures: [signature()],
  checkedAt: '2026-12-07T10:00:00.000Z',
  ...over,
});

afterEach(async () => {
  vi.restoreAllMocks();
  await i18n.changeLanguage('en');
});

describe('the signature panel', () => {
  it('shows the signer, the chain, the time in IST and a valid, trusted signature', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => jsonResponse(200, report()));
    render(<SignaturePanel fileUrl="/uploads/efiles/0b7e0a9c-4d55-4a47-9d7e-2f0c1f2b9a11" />);
    expect(await screen.findByText('Signed by Test Lab Seal')).toBeTruthy();
    expect(String(fetch.mock.calls[0]![0])).toBe('/api/signatures/efiles/0b7e0a9c-4d55-4a47-9d7e-2f0c1f2b9a11');
    expect(screen.getByText('Signed, and not changed since')).toBeTruthy();
    expect(screen.getByText('Valid')).toBeTruthy();
    expect(screen.getByText('Trusted root')).toBeTruthy();
    expect(screen.getByText('Signed on 07 Dec 2026, 3:01 pm IST')).toBeTruthy();
    expect(screen.getAllByRole('listitem')).toHaveLength(3);
  });

  it('says invalid for a document changed after signing, and untrusted for an unknown root', async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () =>
      jsonResponse(
        200,
        report({
          valid: false,
          signatures: [signature({ status: 'invalid', intact: false, trusted: false })],
        }),
      ),
    );
    render(<SignaturePanel fileUrl="/uploads/efiles/0b7e0a9c-4d55-4a47-9d7e-2f0c1f2b9a12" />);
    expect(await screen.findByText('A signature is not valid')).toBeTruthy();
    expect(
      screen.getByText('Invalid: the document was changed after this signature, or the signature is broken'),
    ).toBeTruthy();
    expect(screen.getByText('Untrusted: the chain does not end at a trusted root')).toBeTruthy();
  });

  it('says it in Hindi, and shows nothing for an unsigned PDF', async () => {
    await i18n.changeLanguage('hi');
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => jsonResponse(200, report()));
    render(<SignaturePanel fileUrl="/uploads/efiles/0b7e0a9c-4d55-4a47-9d7e-2f0c1f2b9a13" />);
    expect(await screen.findByText('Test Lab Seal द्वारा हस्ताक्षरित')).toBeTruthy();
    expect(screen.getByText('मान्य')).toBeTruthy();
    await i18n.changeLanguage('en');
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () =>
      jsonResponse(200, report({ signed: false, valid: false, signatures: [] })),
    );
    const { container } = render(<SignaturePanel fileUrl="/uploads/efiles/0b7e0a9c-4d55-4a47-9d7e-2f0c1f2b9a14" />);
    await vi.waitFor(() => expect(container.querySelector('[role="status"]')).toBeNull());
    expect(container.querySelector('[role="group"]')).toBeNull();
    expect(within(container).queryByText('Digital signatures')).toBeNull();
  });
});
