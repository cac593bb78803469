import { ActionIcon, TextInput, type TextInputProps } from '@mantine/core';
import { forwardRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import classes from './search.module.css';

function SearchIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <circle cx="11" cy="11" r="7" fill="none" stroke="currentColor" strokeWidth="2.2" />
      <path d="M20 20l-4-4" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
    </svg>
  );
}

/**
 * The header's search field as the person sees it, with or without suggestions around it. `note`: why Enter did not
 * search, shown as the field's error and announced; `floatingNote` puts it over the page (the header keeps its height).
 */
export const SearchInput = forwardRef<
  HTMLInputElement,
  TextInputProps & { busy?: ReactNode; note?: string; floatingNote?: boolean }
>(function SearchInput({ busy, note, floatingNote = true, ...props }, ref) {
  const { t } = useTranslation('common');
  return (
    <TextInput
      ref={ref}
      label={t('search.label')}
      labelProps={{ className: 'visually-hidden' }}
      placeholder={t('search.placeholder')}
      type="search"
      autoComplete="off"
      w={{ base: '100%', sm: 260 }}
      error={note || undefined}
      errorProps={{ role: 'alert' }}
      classNames={floatingNote ? { error: classes.floatingNote } : undefined}
      rightSectionPointerEvents="all"
      rightSection={
        busy ?? (
          // Enter in the field searches: the button is for the pointer, and the field leaves with one Tab.
          <ActionIcon type="submit" variant="subtle" color="gray.8" aria-label={t('search.submit')} tabIndex={-1}>
            <SearchIcon />
          </ActionIcon>
        )
      }
      {...props}
    />
  );
});
