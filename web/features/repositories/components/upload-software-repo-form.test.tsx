import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { api, ApiError } from '#web/lib/api-client.ts';
import { chooseFile, deferred, fillIn, pickOption, render } from '#web/test/render.tsx';

import { UploadSoftwareRepoForm } from './upload-software-repo-form.tsx';

const GROUP = { _id: '00000000-0000-4000-8000-0000000000f1', name: 'Fire Safety Research Group' };
const groups = { groups: [GROUP], isPending: false, isError: false };
const zip = () => new File(['PK'], 'toolkit.zip', { type: 'application/zip' });

const setup = (defaultGroup = GROUP._id) => {
  const view = render(<UploadSoftwareRepoForm groups={groups} defaultGroup={defaultGroup} />);
  const submit = () => view.user.click(screen.getByRole('button', { name: /^Upload/ }));
  const chooseType = (type: string) => pickOption(view.user, /^Type/, type);
  return { ...view, submit, chooseType };
};

describe('UploadSoftwareRepoForm', () => {
  it('asks for both a group and a type first, and sends nothing', async () => {
    const upload = vi.spyOn(api, 'upload');
    const { submit } = setup('');
    await submit();
    expect(await screen.findByText('Please select both a Group and a Type.')).toBeInTheDocument();
    expect(upload).not.toHaveBeenCalled();
  });

  it('takes the group-and-type message away once both are chosen', async () => {
    const { user, submit, chooseType } = setup('');
    await submit();
    expect(await screen.findByText('Please select both a Group and a Type.')).toBeInTheDocument();
    await pickOption(user, /^Group/, GROUP.name);
    expect(screen.getByText('Please select both a Group and a Type.')).toBeInTheDocument();
    await chooseType('ZIP File');
    expect(screen.queryByText('Please select both a Group and a Type.')).not.toBeInTheDocument();
  });

  it('asks for a file, a GitHub URL or a cloned path', async () => {
    const { submit, chooseType } = setup();
    await chooseType('Code');
    await submit();
    expect(
      await screen.findByText('Please provide either a file, a GitHub URL, or a Cloned Repository Path.'),
    ).toBeInTheDocument();
  });

  it('refuses metadata that is not JSON and a URL without http', async () => {
    const { submit, chooseType } = setup();
    await chooseType('Code');
    fillIn(/^GitHub URL/, 'https://github.com/lab/toolkit');
    fillIn(/^Metadata/, '{"version":');
    await submit();
    expect(await screen.findByText('Invalid JSON format for metadata. Please check your input.')).toBeInTheDocument();
    fillIn(/^Metadata/, '');
    fillIn(/^GitHub URL/, 'github.com/lab/toolkit');
    await submit();
    expect(
      await screen.findByText('Please enter a valid GitHub URL starting with http:// or https://.'),
    ).toBeInTheDocument();
  });

  it('names the button that clears a chosen file, and clears it', async () => {
    const { user, container } = setup();
    await chooseFile(user, container, zip());
    expect(screen.getByText('toolkit.zip')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove the chosen file' }));
    expect(screen.queryByText('toolkit.zip')).not.toBeInTheDocument();
  });

  it('sends the fields then the file, disabled while sending, then says it was uploaded', async () => {
    const answer = deferred<unknown>();
    const upload = vi.spyOn(api, 'upload').mockReturnValue(answer.promise);
    const { user, container, submit, chooseType } = setup();
    await chooseType('ZIP File');
    fillIn(/^Metadata/, '{"version": "1.0"}');
    await chooseFile(user, container, zip());
    await submit();

    const [url, form] = upload.mock.calls[0]!;
    expect(url).toBe('/api/softwareRepo');
    expect([...form.keys()]).toEqual(['group', 'type', 'metadata', 'file']);
    expect(form.get('group')).toBe(GROUP._id);
    expect(form.get('type')).toBe('ZIP File');
    expect(form.get('metadata')).toBe('{"version": "1.0"}');
    expect(screen.getByRole('button', { name: 'Uploading...' })).toBeDisabled();

    answer.resolve({});
    expect(await screen.findByText('Software repository uploaded successfully!')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload' })).toBeEnabled();
  });

  it("says why the server refused: 'Upload failed: …'", async () => {
    vi.spyOn(api, 'upload').mockRejectedValue(new ApiError(413, 'The file is larger than 100 MB.'));
    const { user, container, submit, chooseType } = setup();
    await chooseType('ZIP File');
    await chooseFile(user, container, zip());
    await submit();
    expect(await screen.findByText('Upload failed: The file is larger than 100 MB.')).toBeInTheDocument();
  });
});
