import { Alert, List, Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import type { LetterHistoryJson } from '#shared/schemas/letter.ts';

import { useFormatDate } from '#web/lib/use-format-date.ts';

import { useLetterHistory } from '../api.ts';

const DATE_FIELDS = new Set(['letterDate', 'docketDate']);

/** A changed value as a person reads it: dates the Indian way, a classification in the current language. */
function useShowValue() {
  const { formatDate } = useFormatDate();
  const { t } = useTranslation('letters');
  return (field: string, value: unknown) => {
    if (value === null || value === undefined || value === '') return t('na');
    if (DATE_FIELDS.has(field)) return formatDate(String(value));
    if (field === 'classification') return t(`classification.${String(value)}`, String(value));
    return String(value);
  };
}

function Entry({ entry }: { entry: LetterHistoryJson }) {
  const { formatDateTime } = useFormatDate();
  const { t } = useTranslation('letters');
  const show = useShowValue();
  const who = entry.actor?.name ?? t('unknown');
  const changes = Object.entries(entry.changes ?? {});
  return (
    <List.Item>
      <Text size="sm">
        {t(`history.${entry.action}`, { name: who })} · {formatDateTime(entry.at)}
      </Text>
      {changes.length > 0 && (
        <List size="sm" withPadding listStyleType="disc">
          {changes.map(([field, change]) => (
            <List.Item key={field}>
              {t('history.change', {
                field: t(`fields.${field}`, field),
                from: show(field, change.from),
                to: show(field, change.to),
              })}
            </List.Item>
          ))}
        </List>
      )}
    </List.Item>
  );
}

/** Who changed what on a letter, and when (decision 009), loaded when shown. */
export function LetterHistory({ letterId }: { letterId: string }) {
  const { t } = useTranslation('letters');
  const history = useLetterHistory(letterId, true);
  if (history.isPending) return <Loader size="sm" role="status" aria-label={t('history.loading')} />;
  if (history.isError) {
    return (
      <Alert color="red" variant="light" role="alert">
        <Text c="gray.9">{t('history.failed')}</Text>
      </Alert>
    );
  }
  return (
    <List spacing="xs" listStyleType="none" aria-label={t('history.title')}>
      {history.data.map((entry) => (
        <Entry key={entry._id} entry={entry} />
      ))}
    </List>
  );
}
