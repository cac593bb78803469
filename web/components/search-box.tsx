import { useState, type FormEvent } from 'react';
import { ActionIcon, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { paths } from '#web/app/paths.ts';

function SearchIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <circle cx="11" cy="11" r="7" fill="none" stroke="currentColor" strokeWidth="2.2" />
      <path d="M20 20l-4-4" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
    </svg>
  );
}

/**
 * The header search (spec §2 calls the original a box that does nothing): it searches the staff directory,
 * /employees?q=, which needs a login, so a visitor sees it disabled and told to sign in (decision 011).
 */
export function SearchBox({ signedIn, id = 'header-search' }: { signedIn: boolean; id?: string }) {
  const { t } = useTranslation('common');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [query, setQuery] = useState(params.get('q') ?? '');
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const text = query.trim();
    if (signedIn && text) void navigate(paths.employeeSearch(text));
  };
  return (
    <form role="search" onSubmit={onSubmit} aria-label={t('search.region')}>
      <TextInput
        id={id}
        label={t('search.label')}
        labelProps={{ className: 'visually-hidden' }}
        placeholder={signedIn ? t('search.placeholder') : t('search.signedOut')}
        disabled={!signedIn}
        value={query}
        onChange={(event) => setQuery(event.currentTarget.value)}
        type="search"
        w={{ base: '100%', sm: 240 }}
        rightSectionPointerEvents="all"
        rightSection={
          <ActionIcon
            type="submit"
            variant="subtle"
            color="gray.8"
            aria-label={t('search.submit')}
            disabled={!signedIn}
          >
            <SearchIcon />
          </ActionIcon>
        }
      />
    </form>
  );
}
