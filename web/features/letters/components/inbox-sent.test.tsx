import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { InboxCountJson, InboxLetterJson, InboxPageJson, LetterJson } from '#shared/schemas/letter.ts';

import i18n from '#web/i18n/index.ts';
import { api } from '#web/lib/api-client.ts';
import { render } from '#web/test/render.tsx';

import { Whereabouts } from './dak-parts.tsx';
import { Inbox } from './inbox.tsx';

// Decision 099: the Sent tab of Marked to Me, the letter's whereabouts on its card, and where the overdue letters are.

const RAVI = { _id: '00000000-0000-4000-8000-000000000101', name: 'Ravi Kumar', designation: 'Scientist D' };
const ME = { _id: '00000000-0000-4000-8000-000000000102', name: 'Asha Verma' };

const sentLetter = (): InboxLetterJson =>
  ({
    _id: '00000000-0000-4000-8000-00000000000a',
    letterId: 'L-2026-000007',
    letterSub: 'Annual fire drill',
    classification: 'Normal',
    dak: {
      holders: [{ ...RAVI, status: 'pending', markedAt: '2026-11-21T05:00:00.000Z', receivedAt: null }],
      closed: null,
    },
    movement: {
      _id: '00000000-0000-4000-8000-0000000000b1',
      letter: '00000000-0000-4000-8000-00000000000a',
      from: ME,
      to: RAVI,
      remarks: '',
      dueDate: null,
      priority: 'Normal',
      markedAt: '2026-11-21T05:00:00.000Z',
      readAt: null,
      receivedAt: null,
      status: 'pending',
      forInformation: false,
      markedBy: null,
      receivedBy: null,
      endedBy: null,
      endedAt: null,
      outcome: null,
      disposal: null,
      fileNo: null,
      replyRef: null,
      overdue: false,
    },
  }) as unknown as InboxLetterJson;

const COUNT: InboxCountJson = { pending: 2, unread: 1, overdue: 1, overdueByBox: { pending: 0, received: 1 } };

function serve(sent: InboxLetterJson[]) {
  return vi.spyOn(api, 'get').mockImplementation(async (path: string, options?: { params?: object }) => {
    if (path === '/api/dac/inbox/count') return COUNT;
    const status = (options?.params as { status?: string } | undefined)?.status;
    return { letters: status === 'sent' ? sent : [], next: null } satisfies InboxPageJson;
  });
}

afterEach(async () => {
  vi.restoreAllMocks();
  await i18n.changeLanguage('en');
});

describe('Marked to Me: Sent', () => {
  it('lists what I marked on, with its state, where it is now and Pull Back', async () => {
    const get = serve([sentLetter()]);
    const post = vi.spyOn(api, 'post').mockResolvedValue([]);
    const { user } = render(<Inbox />);
    await user.click(await screen.findByRole('tab', { name: 'Sent' }));
    const card = within(await screen.findByRole('article', { name: 'Annual fire drill' }));
    expect(get).toHaveBeenCalledWith(
      '/api/dac/inbox',
      expect.objectContaining({ params: expect.objectContaining({ status: 'sent' }) }),
    );
    expect(card.getByText(/^L-2026-000007 · marked to Ravi Kumar, Scientist D on /)).toBeInTheDocument();
    expect(card.getByText('Not yet received')).toBeInTheDocument();
    expect(card.getByTestId('whereabouts')).toHaveTextContent(
      'Now: Marked to Ravi Kumar, Scientist D, not yet received',
    );
    await user.click(card.getByRole('button', { name: 'Pull back letter L-2026-000007 from Ravi Kumar' }));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(
        '/api/dac/00000000-0000-4000-8000-00000000000a/movements/00000000-0000-4000-8000-0000000000b1/pull-back',
      ),
    );
    expect(await screen.findByText('Letter L-2026-000007 pulled back from Ravi Kumar.')).toBeInTheDocument();
  });

  it('offers no Pull Back once received, and says what became of the marking', async () => {
    const letter = sentLetter();
    letter.movement = {
      ...letter.movement,
      status: 'closed',
      outcome: 'forwarded',
      receivedAt: '2026-11-22T05:00:00.000Z',
      endedAt: '2026-11-23T05:00:00.000Z',
    };
    letter.dak = { holders: [], closed: { by: { _id: RAVI._id, name: 'Meena Iyer' }, at: '2026-11-24T05:00:00.000Z' } };
    serve([letter]);
    const { user } = render(<Inbox />);
    await user.click(await screen.findByRole('tab', { name: 'Sent' }));
    const card = within(await screen.findByRole('article', { name: 'Annual fire drill' }));
    expect(card.getByText(/^Marked on /)).toBeInTheDocument();
    expect(card.getByTestId('whereabouts')).toHaveTextContent('Now: Closed by Meena Iyer on 24 Nov 2026');
    expect(card.queryByRole('button', { name: /Pull back/ })).toBeNull();
  });

  it('says an empty Sent plainly, in Hindi too', async () => {
    serve([]);
    await i18n.changeLanguage('hi');
    const { user } = render(<Inbox />);
    await user.click(await screen.findByRole('tab', { name: 'भेजे गए' }));
    expect(await screen.findByText('आपने अभी कोई पत्र आगे अंकित या सूचनार्थ नहीं भेजा है।')).toBeInTheDocument();
  });

  it('says under which box the overdue letters are (the count spans two boxes, the list shows one)', async () => {
    serve([]);
    render(<Inbox />);
    expect(
      await screen.findByText('2 not yet received (1 unread). 1 overdue: 0 under Not Received, 1 under Received.'),
    ).toBeInTheDocument();
  });
});

describe('Whereabouts', () => {
  const dak = (h: Partial<NonNullable<LetterJson['dak']>['holders'][number]>): LetterJson['dak'] => ({
    holders: [
      {
        ...RAVI,
        status: 'received',
        markedAt: '2026-11-20T05:00:00.000Z',
        receivedAt: '2026-11-21T05:00:00.000Z',
        ...h,
      },
    ],
    closed: null,
  });

  it('says who holds the letter and since when, in English and Hindi', async () => {
    const { unmount } = render(<Whereabouts dak={dak({})} />);
    expect(screen.getByTestId('whereabouts')).toHaveTextContent(
      'Now: With Ravi Kumar, Scientist D — received 21 Nov 2026',
    );
    unmount();
    await i18n.changeLanguage('hi');
    render(<Whereabouts dak={dak({ status: 'pending', receivedAt: null, designation: '' })} />);
    await waitFor(() =>
      expect(screen.getByTestId('whereabouts')).toHaveTextContent('अभी: Ravi Kumar को अंकित, अभी प्राप्त नहीं'),
    );
  });

  it('shows nothing before the letter first moves', () => {
    const { container } = render(<Whereabouts dak={null} />);
    expect(container.querySelector('[data-testid="whereabouts"]')).toBeNull();
  });
});
