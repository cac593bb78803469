import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { setLanguage } from '#web/i18n/index.ts';
import { jsonResponse, render } from '#web/test/render.tsx';

import { PendencyReport } from './pendency-report.tsx';

afterEach(async () => {
  await act(() => setLanguage('en'));
});

const REFUSAL = 'Only directors, administrators and associate directors may see pendency.';

describe('PendencyReport', () => {
  it('shows the refusal alone to a person the server refuses: no period, print or export', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(jsonResponse(403, { error: REFUSAL, message: REFUSAL }));
    render(<PendencyReport groups={null} />);
    expect(await screen.findByText(REFUSAL)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Print' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Export CSV' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('From')).not.toBeInTheDocument();
  });

  it('offers the period, print and export with the report', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      jsonResponse(200, { from: '2026-10-28', to: '2026-11-27', group: null, officers: [], groups: [], oldest: [] }),
    );
    render(<PendencyReport groups={null} />);
    expect(await screen.findByText('No letters pending.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Print' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Export CSV' })).toBeInTheDocument();
  });

  it("writes the period and the oldest letter's dates in the reader's language, day first (issue 35)", async () => {
    const holder = { _id: '00000000-0000-4000-8000-000000000002', name: 'Kavita Rao' };
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      jsonResponse(200, {
        from: '2026-10-28',
        to: '2026-11-27',
        group: null,
        officers: [],
        groups: [],
        oldest: [
          {
            letter: {
              _id: '00000000-0000-4000-8000-000000000001',
              letterId: 'L-1',
              letterSub: 'Budget',
              classification: 'Normal',
            },
            holder,
            since: '2026-09-14T09:35:00Z',
            receivedAt: null,
            dueDate: '2026-11-21',
            priority: 'Normal',
          },
        ],
      }),
    );
    render(<PendencyReport groups={null} />);
    expect(await screen.findByText(/^14 Sep 2026, 3:05\spm$/)).toBeInTheDocument();
    expect(screen.getByText('21 Nov 2026')).toBeInTheDocument();
    expect(screen.getByText(/28 Oct 2026.*27 Nov 2026/)).toBeInTheDocument();

    await act(() => setLanguage('hi'));
    expect(await screen.findByText(/^14 सित॰ 2026, 3:05\sअपराह्न$/)).toBeInTheDocument();
    expect(screen.getByText('21 नव॰ 2026')).toBeInTheDocument();
    expect(screen.getByText(/28 अक्टू॰ 2026.*27 नव॰ 2026/)).toBeInTheDocument();
    expect(screen.queryByText(/Sep|Nov|Oct|pm/)).not.toBeInTheDocument();
  });
});
