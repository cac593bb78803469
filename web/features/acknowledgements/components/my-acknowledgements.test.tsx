import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { MyAcknowledgementJson } from '#shared/schemas/acknowledgements.ts';

import { setLanguage } from '#web/i18n/index.ts';
import { jsonResponse, render } from '#web/test/render.tsx';

import { AcknowledgementEntry } from './acknowledgement-entry.tsx';
import { MyAcknowledgements } from './my-acknowledgements.tsx';

const CIRCULAR: MyAcknowledgementJson = {
  _id: '00000000-0000-4000-8000-000000000001',
  document: {
    _id: '00000000-0000-4000-8000-0000000000d1',
    kind: 'circular',
    name: 'Storage of explosives',
    description: 'New rules for the magazine.',
    fileUrl: '/uploads/lab/storage.pdf',
    fileName: 'storage.pdf',
    owner: { type: 'lab', _id: '00000000-0000-4000-8000-0000000000e1', name: 'Defence Materials Lab' },
  },
  dueOn: '2026-11-21',
  overdue: false,
  openedAt: null,
  acknowledgedAt: null,
};
const NOTICE: MyAcknowledgementJson = {
  ...CIRCULAR,
  _id: '00000000-0000-4000-8000-000000000002',
  document: {
    ...CIRCULAR.document,
    _id: '00000000-0000-4000-8000-0000000000d2',
    kind: 'notice',
    name: 'Fire drill',
    owner: { type: 'group', _id: '00000000-0000-4000-8000-0000000000e2', name: 'Fire Safety' },
  },
  dueOn: '2026-11-02',
  overdue: true,
};

/** The server as the tests need it: the person's rows, /count, /open and /acknowledge; every call is noted. */
function fakeServer(rows: MyAcknowledgementJson[]) {
  const calls: string[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://portal.test');
    const method = init?.method ?? 'GET';
    calls.push(`${method} ${url.pathname}${url.search}`);
    const pending = rows.filter((r) => !r.acknowledgedAt);
    if (url.pathname === '/api/acknowledgements/count')
      return jsonResponse(200, { pending: pending.length, overdue: pending.filter((r) => r.overdue).length });
    if (url.pathname === '/api/acknowledgements') {
      const status = url.searchParams.get('status');
      return jsonResponse(200, status === 'pending' ? pending : rows.filter((r) => r.acknowledgedAt));
    }
    const action = /^\/api\/acknowledgements\/([\w-]+)\/(open|acknowledge)$/.exec(url.pathname);
    const row = rows.find((r) => r._id === action?.[1]);
    if (action && row && method === 'POST') {
      if (action[2] === 'open') {
        row.openedAt ??= '2026-11-10T04:30:00Z';
        return new Response(null, { status: 204 });
      }
      if (!row.openedAt) return jsonResponse(409, { error: 'Please open the document before acknowledging it.' });
      row.acknowledgedAt = '2026-11-10T05:00:00Z';
      row.overdue = false;
      return jsonResponse(200, { _id: row._id, acknowledgedAt: row.acknowledgedAt });
    }
    return jsonResponse(404, { error: 'Not found' });
  });
  return calls;
}

/** The document opens in a new tab, which jsdom cannot: the click is stopped after the page has handled it. */
const stopNavigation = (event: MouseEvent) => event.preventDefault();
beforeEach(() => window.addEventListener('click', stopNavigation));
afterEach(async () => {
  window.removeEventListener('click', stopNavigation);
  await act(() => setLanguage('en'));
});

const setup = () =>
  render(
    <>
      <AcknowledgementEntry to="/acknowledgements" />
      <MyAcknowledgements />
    </>,
  );

describe('To acknowledge', () => {
  it('lists what waits, overdue marked, with whose it is and the due date, and the badge counts it', async () => {
    fakeServer([structuredClone(NOTICE), structuredClone(CIRCULAR)]);
    setup();
    const pending = await screen.findByRole('region', { name: 'Waiting for your acknowledgement' });
    const [first, second] = await within(pending).findAllByRole('article');
    expect(within(first!).getByRole('heading', { name: 'Fire drill' })).toBeInTheDocument();
    expect(within(first!).getByText('Overdue')).toBeInTheDocument();
    expect(within(first!).getByText('Overdue: it was due by 02 Nov 2026')).toBeInTheDocument();
    expect(within(first!).getByText('From the group: Fire Safety')).toBeInTheDocument();
    expect(within(second!).getByText('Acknowledge by 21 Nov 2026')).toBeInTheDocument();
    expect(within(second!).getByText('From the lab: Defence Materials Lab')).toBeInTheDocument();
    expect(within(second!).queryByText('Overdue')).not.toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'To acknowledge, 2 pending, 1 overdue' })).toHaveAttribute(
      'href',
      '/acknowledgements',
    );
    expect(await screen.findByText('You have not acknowledged anything yet.')).toBeInTheDocument();
  });

  it('enables Acknowledge once the document is opened, asks to confirm, then moves it and updates the badge', async () => {
    const calls = fakeServer([structuredClone(CIRCULAR)]);
    const { user } = setup();
    const card = await screen.findByRole('article', { name: 'Storage of explosives' });
    const acknowledge = within(card).getByRole('button', { name: 'Acknowledge Storage of explosives' });
    expect(acknowledge).toBeDisabled();
    expect(within(card).getByText('Open the document first; Acknowledge is then enabled.')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'To acknowledge, 1 pending' })).toBeInTheDocument();

    const open = within(card).getByRole('link', { name: 'Open Storage of explosives (opens in a new tab)' });
    expect(open).toHaveAttribute('href', '/uploads/lab/storage.pdf');
    expect(open).toHaveAttribute('target', '_blank');
    await user.click(open);
    await waitFor(() => expect(acknowledge).toBeEnabled());
    expect(calls).toContain(`POST /api/acknowledgements/${CIRCULAR._id}/open`);

    await user.click(acknowledge);
    const dialog = await screen.findByRole('dialog', { name: 'Acknowledge this document?' });
    expect(
      within(dialog).getByText(
        'You confirm that you have read “Storage of explosives” and will act on it. Your acknowledgement is recorded with the date and time.',
      ),
    ).toBeInTheDocument();
    // Cancel first: nothing is sent.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((c) => c.endsWith('/acknowledge'))).toBe(false);

    await user.click(acknowledge);
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Acknowledge this document?' })).getByRole('button', {
        name: 'Acknowledge',
      }),
    );
    expect(await screen.findByText('Acknowledged: Storage of explosives')).toBeInTheDocument();
    expect(calls).toContain(`POST /api/acknowledgements/${CIRCULAR._id}/acknowledge`);

    const done = screen.getByRole('region', { name: 'Acknowledged' });
    expect(await within(done).findByText('Acknowledged on 10 Nov 2026, 10:30 am')).toBeInTheDocument();
    expect(
      await within(screen.getByRole('region', { name: 'Waiting for your acknowledgement' })).findByText(
        'Nothing is waiting for your acknowledgement.',
      ),
    ).toBeInTheDocument();
    // The badge is asked again at once, and is gone.
    await waitFor(() => expect(screen.queryByRole('link', { name: /^To acknowledge/ })).not.toBeInTheDocument());
    expect(calls.filter((c) => c === 'GET /api/acknowledgements/count').length).toBeGreaterThan(1);
    // The focus is on the pending list, not lost with the row that left it.
    await waitFor(() =>
      expect(screen.getByRole('heading', { name: 'Waiting for your acknowledgement' })).toHaveFocus(),
    );
  });

  it('reads in Hindi, dates the Indian way', async () => {
    fakeServer([structuredClone(NOTICE)]);
    setup();
    await act(() => setLanguage('hi'));
    const card = await screen.findByRole('article', { name: 'Fire drill' });
    expect(within(card).getByText('समय-सीमा पार: पावती 02 नव॰ 2026 तक देनी थी')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Fire drill की पावती दें' })).toBeDisabled();
    expect(await screen.findByRole('link', { name: 'पावती देनी है, 1 लंबित, 1 समय-सीमा पार' })).toBeInTheDocument();
  });
});
