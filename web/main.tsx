// The portal's own fonts (decision 018): Noto Sans for Latin and Noto Sans Devanagari for Hindi, so Hindi renders on
// machines with no Devanagari font installed. Only the weights the UI uses (400 text, 500 labels, 600 buttons, 700
// headings) and only the Latin and Devanagari subsets; each face says font-display: swap and is fetched only when a
// character in its unicode-range is on the page.
import '@fontsource/noto-sans/latin-400.css';
import '@fontsource/noto-sans/latin-500.css';
import '@fontsource/noto-sans/latin-600.css';
import '@fontsource/noto-sans/latin-700.css';
import './app/fonts.css'; // Noto Sans Devanagari, with the unicode-range fontsource's subset files lack
import './app/mantine-shell.css';
import './app/global.css';

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';

import { AppProviders } from './app/providers.tsx';
import { router } from './app/router.tsx';
import { i18nReady, loadMessages } from './i18n/index.ts';
import { applyStoredDisplayPreferences } from './lib/display-preferences.ts';
import { installFocusFirstError } from './lib/focus-first-error.ts';
import { installLanguageSync } from './lib/language-sync.ts';

applyStoredDisplayPreferences();
installFocusFirstError();

const root = createRoot(document.getElementById('root')!);
// The shell's texts load first so the first paint is already in the chosen language.
void i18nReady.finally(() => {
  // The server writes a person's mail in their last-chosen language: told at sign-in and at each switch.
  installLanguageSync();
  root.render(
    <StrictMode>
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
  // The refusals' texts are not part of the first page (decision 087): fetched once it is on its way.
  void loadMessages();
});
