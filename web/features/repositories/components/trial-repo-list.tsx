import { useTranslation } from 'react-i18next';

import type { TrialRepoJson } from '#shared/schemas/repository.ts';

import { serverMessage } from '#web/lib/form-errors.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { useDeleteTrialRepo, useTrialRepos } from '../api.ts';
import { ExternalLink, FileDetail, RepositoryCard, RepositoryCardList, type Viewer } from './repository-card.tsx';
import { Detail } from './repository-parts.tsx';

function TrialRepoCard({ repo, viewer }: { repo: TrialRepoJson; viewer: Viewer }) {
  const { formatDateTime } = useFormatDate();
  const { t } = useTranslation('repositories');
  const remove = useDeleteTrialRepo();
  const { sizeInKB, duration, languageUsed } = repo.metadata;
  return (
    <RepositoryCard repo={repo} headingPrefix="trial-repo" viewer={viewer} remove={remove}>
      <Detail label={t('card.type')}>{repo.type}</Detail>
      <Detail label={t('card.uploadedBy')}>{repo.uploadedBy?.personalDetails.name ?? t('card.unknown')}</Detail>
      <Detail label={t('card.githubUrl')}>{repo.githubUrl ? <ExternalLink href={repo.githubUrl} /> : null}</Detail>
      <Detail label={t('card.languages')}>{languageUsed.length ? languageUsed.join(', ') : null}</Detail>
      {sizeInKB !== null && <Detail label={t('card.size')}>{t('card.sizeValue', { value: sizeInKB })}</Detail>}
      {duration !== null && <Detail label={t('card.duration')}>{t('card.durationValue', { count: duration })}</Detail>}
      {repo.clonedRepoPath && <Detail label={t('card.clonedPath')}>{repo.clonedRepoPath}</Detail>}
      <FileDetail repo={repo} />
      <Detail label={t('card.uploadedOn')}>{formatDateTime(repo.createdAt)}</Detail>
    </RepositoryCard>
  );
}

/** My Group Trial Repositories (spec §2 /view-trialRepo): cards sorted by group name; loading, error with Retry, empty. */
export function TrialRepoList({ viewer }: { viewer: Viewer }) {
  const { t } = useTranslation('repositories');
  return (
    <RepositoryCardList
      query={useTrialRepos()}
      loadingText={t('trial.loading')}
      // spec §8: the server message, else its own words.
      errorText={(err) => serverMessage(err, t('trial.loadFailed'))}
      emptyTitle={t('trial.empty')}
      emptyText={t('trial.emptyText')}
      card={(repo) => <TrialRepoCard key={repo._id} repo={repo} viewer={viewer} />}
    />
  );
}
