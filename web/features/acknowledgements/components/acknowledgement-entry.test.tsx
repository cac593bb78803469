import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { jsonResponse, render } from '#web/test/render.tsx';

import { AcknowledgementEntry } from './acknowledgement-entry.tsx';

const withCount = (pending: number, overdue: number) =>
  vi.spyOn(globalThis, 'fetch').mockImplementation(async () => jsonResponse(200, { pending, overdue }));

describe('the header’s "To acknowledge" on a phone', () => {
  it('shows how many wait, and says it in its name, the overdue ones too', async () => {
    const fetch = withCount(3, 1);
    render(<AcknowledgementEntry to="/acknowledgements" />);
    const link = await screen.findByRole('link', { name: 'To acknowledge, 3 pending, 1 overdue' });
    expect(link).toHaveAttribute('href', '/acknowledgements');
    // The number is drawn for the eye on the link's corner; the name says it to a screen reader once.
    expect(screen.getByText('3')).toHaveAttribute('aria-hidden', 'true');
    expect(String(fetch.mock.calls[0]![0])).toBe('/api/acknowledgements/count');
  });

  it('says "1 pending" without overdue, and 99+ past 99', async () => {
    withCount(1, 0);
    const { unmount } = render(<AcknowledgementEntry to="/acknowledgements" />);
    expect(await screen.findByRole('link', { name: 'To acknowledge, 1 pending' })).toBeInTheDocument();
    unmount();
    withCount(120, 0);
    render(<AcknowledgementEntry to="/acknowledgements" />);
    expect(await screen.findByRole('link', { name: 'To acknowledge, 120 pending' })).toBeInTheDocument();
    expect(screen.getByText('99+')).toBeInTheDocument();
  });

  it('is not there while nothing waits (the navigation, in the menu, still has "To acknowledge")', async () => {
    const fetch = withCount(0, 0);
    const { queryClient } = render(<AcknowledgementEntry to="/acknowledgements" />);
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });
});
