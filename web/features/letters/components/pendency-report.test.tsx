import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { jsonResponse, render } from '#web/test/render.tsx';

import { PendencyReport } from './pendency-report.tsx';

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
});
