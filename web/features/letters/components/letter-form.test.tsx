import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import type { LetterJson } from '#shared/schemas/letter.ts';

import { api, ApiError } from '#web/lib/api-client.ts';
import { chooseFile, deferred, fillIn, render } from '#web/test/render.tsx';

import { LetterForm } from './letter-form.tsx';

/** The letter's text fields as typed, and the label of each. */
const LETTER = {
  letterLanguage: 'Hindi',
  letterCommunBy: 'Post',
  letterNo: 'DRDO/HQ/2026/17',
  category: 'Administration',
  establishment: 'DRDO HQ',
  letterSub: 'Annual fire drill',
  docketNo: 'DKT/2026/0101',
};
const LABELS: Record<keyof typeof LETTER, string> = {
  letterLanguage: 'Language',
  letterCommunBy: 'Communicated By',
  letterNo: 'Letter No',
  category: 'Category',
  establishment: 'Establishment',
  letterSub: 'Subject',
  docketNo: 'Docket No',
};
const pdf = () => new File(['%PDF-1.4'], 'drill.pdf', { type: 'application/pdf' });

const setup = (letter: LetterJson | null = null) => {
  const onStatus = vi.fn();
  const onDone = vi.fn();
  const view = render(<LetterForm letter={letter} onStatus={onStatus} onDone={onDone} />);
  return { ...view, onStatus, onDone };
};
const fillLetter = () => {
  for (const [field, label] of Object.entries(LABELS))
    fillIn(new RegExp(`^${label}`), LETTER[field as keyof typeof LETTER]);
  for (const label of [/^Docket Date/, /^Letter Date/]) fillIn(label, '21-11-2026');
};

describe('LetterForm (upload)', () => {
  it('names every missing field in the spec words and sends nothing', async () => {
    const upload = vi.spyOn(api, 'upload');
    const { user, onStatus } = setup();
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    for (const label of ['Language', 'Communicated By', 'Docket Date', 'Letter Date', 'Subject', 'Docket No'])
      expect(await screen.findByText(`${label} is required.`)).toBeInTheDocument();
    expect(upload).not.toHaveBeenCalled();
    expect(onStatus).not.toHaveBeenCalled();
  });

  it('asks for the file once the fields are right, on the file input and in the banner', async () => {
    const upload = vi.spyOn(api, 'upload');
    const { user, onStatus } = setup();
    fillLetter();
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(onStatus).toHaveBeenCalledWith({ text: '⚠️ Please select a file' });
    expect(await screen.findByText('⚠️ Please select a file')).toBeInTheDocument();
    expect(upload).not.toHaveBeenCalled();
  });

  it('sends the fields and the chosen file, busy while sending, then says it was uploaded', async () => {
    const answer = deferred<LetterJson>();
    const upload = vi.spyOn(api, 'upload').mockReturnValue(answer.promise);
    const { user, container, onStatus, onDone } = setup();
    fillLetter();
    await chooseFile(user, container, pdf());
    await user.click(screen.getByRole('button', { name: 'Upload' }));

    expect(upload).toHaveBeenCalledTimes(1);
    const [url, form] = upload.mock.calls[0]!;
    expect(url).toBe('/api/dac');
    expect(Object.fromEntries([...form.entries()].filter(([k]) => k !== 'file'))).toEqual({
      ...LETTER,
      docketDate: '2026-11-21',
      letterDate: '2026-11-21',
      classification: 'Normal',
    });
    expect((form.get('file') as File).name).toBe('drill.pdf');
    expect(screen.getByRole('button', { name: 'Upload' })).toHaveAttribute('data-loading', 'true');

    answer.resolve({} as LetterJson);
    await waitFor(() => expect(onStatus).toHaveBeenCalledWith({ text: '✅ Letter uploaded' }));
    expect(onDone).toHaveBeenCalled();
  });

  it("puts the server's refusal on its field and gives the banner its reason", async () => {
    vi.spyOn(api, 'upload').mockRejectedValue(new ApiError(400, 'Docket No is required.', 'docketNo'));
    const { user, container, onStatus } = setup();
    fillLetter();
    await chooseFile(user, container, pdf());
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByText('Docket No is required.')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Docket No/)).toHaveAttribute('aria-invalid', 'true');
    expect(onStatus).toHaveBeenCalledWith({ text: '❌ Upload failed', detail: 'Docket No is required.' });
  });
});

describe('LetterForm (edit)', () => {
  const letter = {
    _id: '00000000-0000-4000-8000-00000000000a',
    letterId: 'L-2026-000007',
    ...LETTER,
    docketDate: '2026-11-20T00:00:00.000Z',
    letterDate: '2026-11-18T00:00:00.000Z',
    classification: 'Normal',
    originalName: 'drill.pdf',
  } as LetterJson;

  it('saves the fields as JSON without a file, and says it was updated', async () => {
    vi.spyOn(api, 'get').mockResolvedValue([]);
    const put = vi.spyOn(api, 'put').mockResolvedValue(letter);
    const upload = vi.spyOn(api, 'upload');
    const { user, onStatus } = setup(letter);
    fillIn(/^Subject/, 'Annual fire drill, revised');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(onStatus).toHaveBeenCalledWith({ text: '✅ Letter updated' }));
    const [url, body] = put.mock.calls[0]!;
    expect(url).toBe(`/api/dac/${letter._id}`);
    expect(body).toMatchObject({ letterSub: 'Annual fire drill, revised', docketDate: '2026-11-20' });
    expect(body).not.toHaveProperty('file');
    expect(upload).not.toHaveBeenCalled();
  });
});
