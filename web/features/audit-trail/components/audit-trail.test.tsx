import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import type { AuditEventJson, AuditEventPageJson } from '#shared/schemas/audit.ts';

import i18n from '#web/i18n/index.ts';
import { api } from '#web/lib/api-client.ts';
import { render } from '#web/test/render.tsx';

import { AuditTrail } from './audit-trail.tsx';

const event = (over: Partial<AuditEventJson>): AuditEventJson => ({
  _id: '00000000-0000-4000-8000-0000000000e1',
  seq: 1,
  occurredAt: '2026-11-27T09:45:00.000Z', // 3:15 pm in India
  actor: { _id: '00000000-0000-4000-8000-0000000000a1', name: 'Asha Verma', role: 'admin' },
  address: '10.1.2.3',
  userAgent: 'Firefox',
  action: 'role_changed',
  object: { type: 'user', id: '00000000-0000-4000-8000-0000000000a2', label: 'Ravi Kumar (ravi@lab.test)' },
  classification: null,
  outcome: 'success',
  details: { from: 'employee', to: 'director' },
  ...over,
});

const PAGE: AuditEventPageJson = {
  items: [
    event({}),
    event({
      _id: '00000000-0000-4000-8000-0000000000e2',
      seq: 2,
      action: 'sign_in_failed',
      actor: null,
      object: { type: 'login', id: 'mallory@lab.test', label: 'mallory@lab.test' },
      outcome: 'failure',
      details: { login: 'mallory@lab.test', code: 'auth.invalid_credentials' },
    }),
    event({
      _id: '00000000-0000-4000-8000-0000000000e3',
      seq: 3,
      action: 'letter_viewed',
      object: { type: 'letter', id: '00000000-0000-4000-8000-0000000000c1', label: 'Explosives storage' },
      classification: 'Secret',
      details: null,
    }),
  ],
  total: 45,
  capped: false,
};

const setup = () => {
  const get = vi.spyOn(api, 'get').mockResolvedValue(PAGE);
  const view = render(<AuditTrail />);
  return { ...view, get };
};

describe('AuditTrail', () => {
  it('shows each event: time in IST, person and role, the action with its change, object, classification, outcome', async () => {
    setup();
    const table = await screen.findByRole('table', { name: 'Audit trail, newest first' });
    const rows = within(table).getAllByRole('row');
    expect(
      within(rows[0]!)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Time (IST)', 'Person', 'Action', 'Object', 'Classification', 'Outcome', 'Address']);
    const first = within(rows[1]!);
    expect(first.getByText('27 Nov 2026, 3:15 pm')).toBeInTheDocument();
    expect(first.getByText('Asha Verma')).toBeInTheDocument();
    expect(first.getByText('Administrator')).toBeInTheDocument();
    expect(first.getByText('Role changed')).toBeInTheDocument();
    expect(first.getByText('Employee → Director')).toBeInTheDocument();
    expect(first.getByText('Ravi Kumar (ravi@lab.test)')).toBeInTheDocument();
    expect(first.getByText('Succeeded')).toBeInTheDocument();
    const failed = within(rows[2]!);
    expect(failed.getByText('Not signed in')).toBeInTheDocument();
    expect(failed.getByText('Login tried: mallory@lab.test')).toBeInTheDocument();
    expect(failed.getByText('Failed')).toBeInTheDocument();
    expect(within(rows[3]!).getByText('Secret')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('45 events');
  });

  it('names the audit trail itself by its type alone, in Hindi too (its stored label is English)', async () => {
    vi.spyOn(api, 'get').mockResolvedValue({
      items: [
        event({
          action: 'audit_exported',
          object: { type: 'audit_trail', id: 'audit_trail', label: 'Audit trail' },
          details: null,
        }),
      ],
      total: 1,
      capped: false,
    } satisfies AuditEventPageJson);
    await i18n.changeLanguage('hi');
    try {
      render(<AuditTrail />);
      const table = await screen.findByRole('table');
      const row = within(within(table).getAllByRole('row')[1]!);
      expect(row.getByText('ऑडिट ट्रेल')).toBeInTheDocument();
      expect(within(table).queryByText(/Audit trail/)).toBeNull();
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('asks the server for the filters chosen and for the next page, and links the CSV of the same filters', async () => {
    const { user, get } = setup();
    await screen.findByRole('table', { name: 'Audit trail, newest first' });
    await user.type(screen.getByRole('searchbox', { name: 'Person' }), 'asha');
    await user.click(screen.getByLabelText('Action', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Role changed', hidden: true }));
    await waitFor(() =>
      expect(get).toHaveBeenLastCalledWith('/api/audit/events', {
        params: { person: 'asha', action: 'role_changed', limit: 20, offset: 0 },
        signal: expect.any(AbortSignal),
      }),
    );
    expect(screen.getByRole('link', { name: 'Download CSV' })).toHaveAttribute(
      'href',
      '/api/audit/events.csv?person=asha&action=role_changed',
    );
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() =>
      expect(get).toHaveBeenLastCalledWith('/api/audit/events', {
        params: { person: 'asha', action: 'role_changed', limit: 20, offset: 20 },
        signal: expect.any(AbortSignal),
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'Download CSV' })).toHaveAttribute('href', '/api/audit/events.csv'),
    );
  });

  it('says so when nothing matches', async () => {
    vi.spyOn(api, 'get').mockResolvedValue({ items: [], total: 0, capped: false });
    render(<AuditTrail />);
    expect(await screen.findByText('No events match these filters.')).toBeInTheDocument();
  });
});
