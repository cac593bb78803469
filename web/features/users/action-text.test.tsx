import { act } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import i18n, { i18nReady, setLanguage } from '#web/i18n/index.ts';

import { actionText } from './action-text.ts';

afterEach(async () => {
  await act(() => setLanguage('en'));
});

const t = (key: string, values?: Record<string, string>) => i18n.t(key, { ns: 'people', ...values });

const changed = {
  action: 'Changed a@lab.test: role employee → director, group → none',
  code: 'activity.user_access_changed',
  params: {
    email: 'a@lab.test',
    changes: {
      code: 'activity.access_role_and_no_group',
      params: { from: { code: 'activity.word_employee' }, to: { code: 'activity.word_director' } },
    },
  },
};
const exported = {
  action: 'Exported letters pendency 2026-10-28 to 2026-11-27',
  code: 'activity.pendency_exported',
  params: { fromDate: '2026-10-28', toDate: '2026-11-27' },
};

describe('activity-log actions worded by code (decision 060)', () => {
  it('words roles and dates in the reader’s language; the English keeps its sentence, with dates day-first', async () => {
    await i18nReady;
    expect(actionText(changed, 'en', t)).toBe(changed.action);
    expect(actionText(exported, 'en', t)).toBe('Exported letters pendency 28 Oct 2026 to 27 Nov 2026');
    await act(() => setLanguage('hi'));
    expect(actionText(changed, 'hi', t)).toBe('a@lab.test में बदलाव किया: भूमिका कर्मचारी → निदेशक, समूह → कोई नहीं');
    expect(actionText(exported, 'hi', t)).toBe('28 अक्टू॰ 2026 से 27 नव॰ 2026 तक की पत्र लंबितता निर्यात की');
  });

  it('shows an entry written before codes as before, and an unknown code by its English', async () => {
    await act(() => setLanguage('hi'));
    expect(actionText({ action: 'Signed in', code: null, params: null }, 'hi', t)).toBe('साइन इन किया');
    expect(actionText({ action: 'Did a new thing', code: 'activity.no_such', params: null }, 'hi', t)).toBe(
      'Did a new thing',
    );
  });
});
