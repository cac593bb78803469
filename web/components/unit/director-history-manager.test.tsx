import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { DEFAULT_ASSOCIATE_DIRECTOR_DESIGNATION, DEFAULT_DIRECTOR_DESIGNATION } from '#shared/constants.ts';
import type { DirectorEntryJson } from '#shared/schemas/unit.ts';

import { setLanguage } from '#web/i18n/index.ts';
import { render } from '#web/test/render.tsx';

import { DirectorHistoryManager, type DirectorKind } from './director-history-manager.tsx';

afterEach(async () => {
  await act(() => setLanguage('en'));
});

/** A mutation that is never called here (the tests only read the form and the table); `never` fits both props. */
const idle = { mutate: () => {}, mutateAsync: async () => ({}), isPending: false } as never;

const entry: DirectorEntryJson = {
  _id: '00000000-0000-4000-8000-000000000001',
  user: null,
  name: 'Kavita Rao',
  designation: 'Director',
  from: '2024-09-02',
  to: null,
  about: '',
  image: null,
};

function renderManager(kind: DirectorKind) {
  return render(
    <DirectorHistoryManager
      kind={kind}
      messageNs="lab"
      history={[entry]}
      currentId={entry._id}
      loading={false}
      failed={false}
      save={idle}
      remove={idle}
      staff={[]}
    />,
  );
}

describe('DirectorHistoryManager', () => {
  it.each([
    ['director', DEFAULT_DIRECTOR_DESIGNATION, 'निदेशक'],
    ['associateDirector', DEFAULT_ASSOCIATE_DIRECTOR_DESIGNATION, 'सहायक निदेशक'],
  ] as const)(
    "%s: the designation's placeholder is the default the server fills in, in the reader's language (issue 35)",
    async (kind, english, hindi) => {
      renderManager(kind);
      expect(screen.getByLabelText('Designation')).toHaveAttribute('placeholder', english);
      await act(() => setLanguage('hi'));
      expect(await screen.findByPlaceholderText(hindi)).toBeInTheDocument();
    },
  );

  it("writes the history's dates in the reader's language, day first", async () => {
    renderManager('director');
    expect(screen.getByRole('cell', { name: '02 Sep 2024' })).toBeInTheDocument();
    await act(() => setLanguage('hi'));
    expect(await screen.findByRole('cell', { name: '02 सित॰ 2024' })).toBeInTheDocument();
  });
});
