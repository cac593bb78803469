import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';

import { SEARCH_KINDS, type SearchKind } from '#shared/schemas/search.ts';

import { PageTitle } from '#web/components/page-title.tsx';
import { SearchResults } from '#web/features/search/components/search-results.tsx';

/** /search?q=…&kinds=…: the portal search results (decision 015), public (a visitor sees public lab content only). */
export default function SearchRoute() {
  const { t } = useTranslation('search');
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const kinds = (params.get('kinds') ?? '')
    .split(',')
    .filter((k): k is SearchKind => (SEARCH_KINDS as readonly string[]).includes(k));
  const onKindsChange = (next: SearchKind[]) =>
    setParams(
      (prev) => {
        const copy = new URLSearchParams(prev);
        if (next.length) copy.set('kinds', next.join(','));
        else copy.delete('kinds');
        return copy;
      },
      { replace: true },
    );
  return (
    <>
      <PageTitle>{t('title')}</PageTitle>
      <SearchResults q={q} kinds={kinds} onKindsChange={onKindsChange} />
    </>
  );
}
