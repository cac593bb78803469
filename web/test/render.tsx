import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render as rtlRender, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement, ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';

import i18n from '#web/i18n/index.ts';

/**
 * Renders a component as the portal does (bulletproof-react's test/test-utils render): Mantine and its toasts (the
 * default theme: the portal's lives in web/app, which only web/app imports), i18n in English, a fresh QueryClient
 * without retries, and a MemoryRouter at `route`. Returns Testing Library's queries and a userEvent `user`.
 */
export function render(ui: ReactElement, { route = '/' }: { route?: string } = {}) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } },
  });
  const Providers = ({ children }: { children: ReactNode }) => (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <MantineProvider theme={{ respectReducedMotion: true }}>
          <Notifications />
          <MemoryRouter initialEntries={[route]}>{children}</MemoryRouter>
        </MantineProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
  // delay null: no timer between keystrokes, so a test types as fast as the form renders.
  return { user: userEvent.setup({ delay: null }), queryClient, ...rtlRender(ui, { wrapper: Providers }) };
}

export type User = ReturnType<typeof render>['user'];

/**
 * Puts `text` into the field labelled `label` as one change, then leaves it (a date field reads typed text on blur):
 * typing key by key re-renders a large form once a key, which made these tests slow.
 */
export function fillIn(label: string | RegExp, text: string) {
  const input = screen.getByLabelText(label);
  fireEvent.change(input, { target: { value: text } });
  fireEvent.blur(input);
}

/** A JSON answer for a stubbed fetch: `status` and `body` as the server would send them. */
export const jsonResponse = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A promise the test settles itself, to look at a screen while its request is still out. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Chooses `file` in the form's (first) file input, as a person picking it in the file dialog would. */
export const chooseFile = (user: User, container: HTMLElement, file: File) =>
  user.upload(container.querySelector<HTMLInputElement>('input[type="file"]')!, file);

/** Opens the Mantine select or multi-select labelled `label` and clicks its option `option`. */
export async function pickOption(user: User, label: string | RegExp, option: string) {
  await user.click(screen.getAllByLabelText(label).find((element) => element.tagName === 'INPUT')!);
  // NOTE: hidden: the dropdown is still in its opening transition, which jsdom never finishes.
  await user.click(await screen.findByRole('option', { name: option, hidden: true }));
}
