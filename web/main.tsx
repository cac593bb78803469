import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app/providers.tsx';
import { router } from './app/router.tsx';
import { i18nReady } from './i18n/index.ts';

const root = createRoot(document.getElementById('root')!);
// The shell's texts load first so the first paint is already in the chosen language.
void i18nReady.finally(() =>
  root.render(
    <StrictMode>
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  ),
);
