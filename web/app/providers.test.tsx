import { act, render } from '@testing-library/react';
import { notifications, notificationsStore } from '@mantine/notifications';
import { afterEach, describe, expect, it } from 'vitest';
import i18n from '#web/i18n/index.ts';
import { AppProviders } from './providers.tsx';

describe('AppProviders: toasts', () => {
  afterEach(async () => {
    await act(() => i18n.changeLanguage('en'));
  });

  it('closes the toasts on screen when the language changes (their words are in the language left)', async () => {
    render(
      <AppProviders>
        <p>page</p>
      </AppProviders>,
    );
    act(() => {
      notifications.show({ message: i18n.t('profile.updated', { ns: 'users' }) });
    });
    expect(notificationsStore.getState().notifications).toHaveLength(1);
    await act(() => i18n.changeLanguage('hi'));
    expect(notificationsStore.getState().notifications).toHaveLength(0);
    expect(notificationsStore.getState().queue).toHaveLength(0);
  });
});
