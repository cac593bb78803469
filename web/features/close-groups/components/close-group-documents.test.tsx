import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import type { CloseGroupDocumentJson, CloseGroupJson } from '#shared/schemas/close-group.ts';

import { api } from '#web/lib/api-client.ts';
import { chooseFile, pickOption, render } from '#web/test/render.tsx';

import { CloseGroupDocuments } from './close-group-documents.tsx';

const doc = (n: number, classification: CloseGroupDocumentJson['classification']): CloseGroupDocumentJson => ({
  _id: `00000000-0000-4000-8000-00000000000${n}`,
  filename: `${classification.toLowerCase()}.pdf`,
  url: `/uploads/close-groups/00000000-0000-4000-8000-00000000010${n}`,
  size: 100,
  uploadedBy: { _id: '00000000-0000-4000-8000-0000000000a1', name: 'Asha Verma' },
  uploadedAt: '2026-11-20T05:00:00.000Z',
  classification,
  canChange: false,
});

const group = {
  _id: '00000000-0000-4000-8000-0000000000c1',
  groupName: 'Magazine audit',
  groupPurpose: 'Audit.',
  groupDuration: { from: '2020-01-01', to: '2099-12-31' },
  requestedBy: [],
  adminRemarks: '',
  status: 'active',
  canUpload: true,
  documents: [doc(1, 'Unclassified'), doc(2, 'Restricted'), doc(3, 'Confidential'), doc(4, 'Secret')],
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
} as CloseGroupJson;

describe('CloseGroupDocuments: classification (decision 072)', () => {
  it('marks Restricted, Confidential and Secret documents with a badge, and Unclassified ones with none', () => {
    render(<CloseGroupDocuments group={group} />);
    const table = screen.getByRole('table');
    const rowOf = (name: string) => within(table).getByRole('row', { name: new RegExp(name) });
    expect(within(rowOf('unclassified.pdf')).queryByText('Unclassified')).not.toBeInTheDocument();
    expect(within(rowOf('restricted.pdf')).getByText('Restricted')).toBeInTheDocument();
    expect(within(rowOf('confidential.pdf')).getByText('Confidential')).toBeInTheDocument();
    expect(within(rowOf('secret.pdf')).getByText('Secret')).toBeInTheDocument();
  });

  it('uploads with the classification chosen, Unclassified unless one is', async () => {
    const upload = vi.spyOn(api, 'upload').mockResolvedValue({ message: 'ok', document: doc(5, 'Secret') });
    const { user, container } = render(<CloseGroupDocuments group={group} />);
    expect(screen.getByRole('combobox', { name: 'Classification' })).toHaveValue('Unclassified');
    await chooseFile(user, container, new File(['minutes'], 'minutes.txt', { type: 'text/plain' }));
    await pickOption(user, 'Classification', 'Secret');
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(upload).toHaveBeenCalledTimes(1);
    const [url, form] = upload.mock.calls[0]!;
    expect(url).toBe(`/api/close-groups/${group._id}/upload`);
    expect(form.get('classification')).toBe('Secret');
    expect((form.get('document') as File).name).toBe('minutes.txt');
  });

  it("changes a document's classification from its dialog, for whoever may change the document", async () => {
    const put = vi.spyOn(api, 'put').mockResolvedValue({ message: 'ok', document: doc(4, 'Restricted') });
    const mine = { ...group, documents: [{ ...doc(4, 'Secret'), canChange: true }, doc(1, 'Unclassified')] };
    const { user } = render(<CloseGroupDocuments group={mine} />);
    // Only the document its reader may change offers the button (one in the table, one in the phone's cards).
    expect(screen.queryAllByRole('button', { name: 'Change the classification of unclassified.pdf' })).toHaveLength(0);
    await user.click(screen.getAllByRole('button', { name: 'Change the classification of secret.pdf' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Classification of secret.pdf' });
    const select = within(dialog).getByRole('combobox', { name: 'Classification' });
    expect(select).toHaveValue('Secret');
    await user.click(select);
    await user.click(await within(dialog).findByRole('option', { name: 'Restricted', hidden: true }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(put).toHaveBeenCalledWith(
      `/api/close-groups/${group._id}/documents/${doc(4, 'Secret')._id}/classification`,
      {
        classification: 'Restricted',
      },
    );
    expect(await screen.findByText('secret.pdf is now Restricted.')).toBeInTheDocument();
  });
});
