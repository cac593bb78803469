import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { api } from '#web/lib/api-client.ts';
import { chooseFile, deferred, fillIn, render } from '#web/test/render.tsx';

import { UploadTrialRepoForm } from './upload-trial-repo-form.tsx';

const GROUP = { _id: '00000000-0000-4000-8000-0000000000f2', name: 'Explosives Safety and Storage Group' };
const groups = { groups: [GROUP], isPending: false, isError: false };

const setup = () => {
  const view = render(<UploadTrialRepoForm groups={groups} defaultGroup={GROUP._id} />);
  const submit = () => view.user.click(screen.getByRole('button', { name: /^Upload/ }));
  return { ...view, submit };
};

describe('UploadTrialRepoForm', () => {
  it('asks for the group, the type and a file, and sends nothing', async () => {
    const upload = vi.spyOn(api, 'upload');
    const { submit } = setup();
    await submit();
    expect(
      await screen.findByText('Please fill in all required fields (Group, Type, and upload a File).'),
    ).toBeInTheDocument();
    expect(upload).not.toHaveBeenCalled();
  });

  it('still asks for the file when the type is given', async () => {
    const upload = vi.spyOn(api, 'upload');
    const { submit } = setup();
    fillIn(/^Type/, 'Blast trial data');
    await submit();
    expect(
      await screen.findByText('Please fill in all required fields (Group, Type, and upload a File).'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText(/^Type/)).not.toHaveAttribute('aria-invalid', 'true');
    expect(upload).not.toHaveBeenCalled();
  });

  it('sends the metadata as one JSON text and the file last, disabled while sending', async () => {
    const answer = deferred<unknown>();
    const upload = vi.spyOn(api, 'upload').mockReturnValue(answer.promise);
    const { user, container, submit } = setup();
    fillIn(/^Type/, 'Blast trial data');
    fillIn(/^Size \(KB\)/, '2048');
    fillIn(/^Duration/, '120');
    fillIn(/^Languages Used/, 'MATLAB, Python');
    await chooseFile(user, container, new File(['run,time'], 'run.txt', { type: 'text/plain' }));
    await submit();

    const [url, form] = upload.mock.calls[0]!;
    expect(url).toBe('/api/trialRepo');
    expect(form.get('type')).toBe('Blast trial data');
    expect(JSON.parse(form.get('metadata') as string)).toEqual({
      sizeInKB: 2048,
      duration: 120,
      languageUsed: ['MATLAB', 'Python'],
    });
    expect([...form.keys()].at(-1)).toBe('file');
    expect(screen.getByRole('button', { name: 'Uploading...' })).toBeDisabled();

    answer.resolve({});
    expect(await screen.findByText('Trial repository uploaded successfully!')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Type/)).toHaveValue('');
  });
});
